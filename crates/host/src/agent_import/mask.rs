//! A secret as the import preview shows it: a known token prefix at most, then its length
//! (`sk-…(51 characters)`); never enough of it to be of use.

/// The most of a value shown: a few characters of a value long enough that they say little.
const SHOWN: usize = 3;
/// From this length a value shows its first [`SHOWN`] characters.
const LONG: usize = 20;

pub fn mask(value: &str) -> String {
    let count = value.chars().count();
    let shown: String = if count >= LONG {
        value.chars().take(SHOWN).collect()
    } else {
        String::new()
    };
    format!("{shown}…({count} characters)")
}

#[cfg(test)]
mod tests {
    use super::mask;

    #[test]
    fn a_masked_value_shows_at_most_three_characters_of_a_long_one() {
        assert_eq!(mask("sk-abcdefghijklmnopqrstuvwxyz"), "sk-…(29 characters)");
        assert_eq!(mask("hunter2"), "…(7 characters)");
        assert!(!mask("ghp_0123456789abcdefghij").contains("0123"));
    }
}
