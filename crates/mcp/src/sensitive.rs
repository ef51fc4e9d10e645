//! [`Sensitive`]: a secret value (a token, a password, a secret header or environment value)
//! that cannot leak by accident. Its `Debug` and `Display` print `<redacted>`, it implements
//! no `Serialize`, and the value is read only through [`Sensitive::expose`], so every place that
//! uses the secret itself says so. The host uses it too, for the secret values it keeps in the
//! keyring.

use std::fmt;

/// What `Debug` and `Display` print instead of the value.
pub const REDACTED: &str = "<redacted>";

/// A secret value; see the module documentation.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Sensitive<T>(T);

impl<T> Sensitive<T> {
    pub fn new(value: T) -> Self {
        Sensitive(value)
    }

    /// The secret itself, for the one place that must use it (a child's environment, a
    /// request header, the keyring).
    pub fn expose(&self) -> &T {
        &self.0
    }

    /// The secret itself, taken out of the wrapper.
    pub fn into_exposed(self) -> T {
        self.0
    }
}

impl<T> From<T> for Sensitive<T> {
    fn from(value: T) -> Self {
        Sensitive(value)
    }
}

impl<T> fmt::Debug for Sensitive<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl<T> fmt::Display for Sensitive<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_hide_the_value() {
        let secret = Sensitive::new(String::from("hunter2-token"));
        assert_eq!(format!("{secret:?}"), REDACTED);
        assert_eq!(format!("{secret}"), REDACTED);
        assert_eq!(format!("{:#?}", Some(&secret)), "Some(\n    <redacted>,\n)");
        assert_eq!(secret.expose(), "hunter2-token", "expose gives the value");
    }
}
