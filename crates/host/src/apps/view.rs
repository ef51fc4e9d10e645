//! A UI resource made ready to render (SEP-1865, "UI Resource Format"): the HTML of a
//! `resources/read` content item with the MCP App mime type, decoded from `text` or base64 `blob`,
//! and its `_meta.ui` (CSP domains, permissions, domain, border preference) taken from the content
//! item, field by field falling back to the `resources/list` entry (the draft revision: "the latter
//! winning" — `resources/read` over `resources/list`).
//!
//! The HTML is at most [`MAX_HTML_BYTES`] (8 MiB).

use base64::Engine as _;
use gatehouse_mcp::ResourceContents;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::APP_MIME_TYPE;
use super::csp::{self, AppCsp};
use crate::error::{HostError, Result};

/// Largest UI document accepted, in bytes (decoded).
pub const MAX_HTML_BYTES: usize = 8 * 1024 * 1024;

/// Browser features a view asks for; the host grants them only if the person agrees.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AppPermissions {
    pub camera: bool,
    pub microphone: bool,
    pub geolocation: bool,
    pub clipboard_write: bool,
}

impl AppPermissions {
    fn from_meta(permissions: &Value) -> AppPermissions {
        let asked = |name: &str| permissions.get(name).is_some_and(|v| !v.is_null());
        AppPermissions {
            camera: asked("camera"),
            microphone: asked("microphone"),
            geolocation: asked("geolocation"),
            clipboard_write: asked("clipboardWrite"),
        }
    }
}

/// A UI resource ready to render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct AppView {
    pub server_id: String,
    pub uri: String,
    /// The document, decoded.
    pub html: String,
    /// The domains it declared.
    pub csp: AppCsp,
    /// The Content-Security-Policy derived from `csp` ([`csp::policy`]).
    pub policy: String,
    /// What it asks for.
    pub permissions: AppPermissions,
    /// The dedicated origin it asks for (host-dependent; Gatehouse does not grant one).
    pub domain: Option<String>,
    pub prefers_border: Option<bool>,
    /// Declared sources the person's app site lists took out of `csp` (and so of `policy`).
    pub withheld: Vec<String>,
    /// Declared sources refused because of where they lead (this computer, a private network,
    /// a whole public suffix), each as `source (why)`; an App sites allow entry lets one through.
    pub refused: Vec<String>,
}

/// Makes the view of `uri` from what `resources/read` returned and, if the server listed it,
/// its `resources/list` entry's `_meta`.
pub fn view(
    server_id: &str,
    uri: &str,
    contents: &[ResourceContents],
    listed_meta: Option<&Value>,
) -> Result<AppView> {
    let refuse = |why: String| HostError::Validation(format!("cannot show the app `{uri}`: {why}"));
    let item = contents
        .iter()
        .find(|c| c.uri == uri)
        .or_else(|| contents.first())
        .ok_or_else(|| refuse("the server returned no content for it".to_owned()))?;
    let mime = item.mime_type.as_deref().unwrap_or_default();
    if !is_app_mime(mime) {
        return Err(refuse(format!(
            "its mime type is `{mime}`, not `{APP_MIME_TYPE}`"
        )));
    }
    let html = match (&item.text, &item.blob) {
        (Some(text), _) => text.clone(),
        (None, Some(blob)) => {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(blob.trim())
                .map_err(|e| refuse(format!("its blob is not valid base64: {e}")))?;
            String::from_utf8(bytes).map_err(|_| refuse("its blob is not UTF-8 text".to_owned()))?
        }
        (None, None) => return Err(refuse("it has neither text nor blob".to_owned())),
    };
    if html.len() > MAX_HTML_BYTES {
        return Err(refuse(format!(
            "it is {} bytes, more than the {MAX_HTML_BYTES} accepted",
            html.len()
        )));
    }
    let read_ui = item.extra.get("_meta").and_then(|m| m.get("ui"));
    let listed_ui = listed_meta.and_then(|m| m.get("ui"));
    // Each field from the read content item when it has it, else from the listing.
    let field = |name: &str| {
        read_ui
            .and_then(|ui| ui.get(name))
            .or_else(|| listed_ui.and_then(|ui| ui.get(name)))
            .filter(|v| !v.is_null())
    };
    let csp = match field("csp") {
        Some(declared) => {
            AppCsp::from_meta(declared).map_err(|e| refuse(format!("its CSP: {e}")))?
        }
        None => AppCsp::default(),
    };
    Ok(AppView {
        server_id: server_id.to_owned(),
        uri: uri.to_owned(),
        html,
        policy: csp::policy(&csp),
        csp,
        permissions: field("permissions")
            .map(AppPermissions::from_meta)
            .unwrap_or_default(),
        domain: field("domain").and_then(Value::as_str).map(str::to_owned),
        prefers_border: field("prefersBorder").and_then(Value::as_bool),
        withheld: Vec::new(),
        refused: Vec::new(),
    })
}

/// `text/html;profile=mcp-app`, with any spacing and case around the parameter.
fn is_app_mime(mime: &str) -> bool {
    let mut parts = mime.split(';').map(|p| p.trim().to_ascii_lowercase());
    parts.next().as_deref() == Some("text/html")
        && parts.any(|p| p.replace(' ', "") == "profile=mcp-app" || p == "profile=\"mcp-app\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn item(value: Value) -> ResourceContents {
        serde_json::from_value(value).expect("a content item")
    }

    #[test]
    fn text_and_blob_are_both_accepted() {
        let text = item(
            json!({ "uri": "ui://a/b", "mimeType": "text/html;profile=mcp-app", "text": "<p>hi</p>" }),
        );
        assert_eq!(
            view("s", "ui://a/b", &[text], None).expect("a view").html,
            "<p>hi</p>"
        );
        let blob = item(
            json!({ "uri": "ui://a/b", "mimeType": "text/html; profile=mcp-app", "blob": "PHA+aGk8L3A+" }),
        );
        assert_eq!(
            view("s", "ui://a/b", &[blob], None).expect("a view").html,
            "<p>hi</p>"
        );
    }

    #[test]
    fn another_mime_type_is_refused() {
        let plain =
            item(json!({ "uri": "ui://a/b", "mimeType": "text/html", "text": "<p>hi</p>" }));
        let error = view("s", "ui://a/b", &[plain], None)
            .expect_err("refused")
            .to_string();
        assert!(error.contains("text/html;profile=mcp-app"), "{error}");
    }

    #[test]
    fn the_read_items_meta_wins_and_the_listing_fills_in() {
        let read = item(json!({
            "uri": "ui://a/b", "mimeType": "text/html;profile=mcp-app", "text": "x",
            "_meta": { "ui": { "csp": { "connectDomains": ["https://read.example.com"] } } }
        }));
        let listed = json!({ "ui": {
            "csp": { "connectDomains": ["https://list.example.com"] },
            "prefersBorder": true,
            "permissions": { "camera": {} }
        }});
        let v = view("s", "ui://a/b", &[read], Some(&listed)).expect("accepted");
        assert_eq!(v.csp.connect_domains, vec!["https://read.example.com"]);
        assert!(v.policy.contains("connect-src https://read.example.com"));
        assert_eq!(v.prefers_border, Some(true));
        assert!(v.permissions.camera && !v.permissions.microphone);
    }

    #[test]
    fn an_injected_csp_refuses_the_whole_view() {
        let read = item(json!({
            "uri": "ui://a/b", "mimeType": "text/html;profile=mcp-app", "text": "x",
            "_meta": { "ui": { "csp": { "resourceDomains": ["https://a.com; script-src *"] } } }
        }));
        assert!(view("s", "ui://a/b", &[read], None).is_err());
    }

    #[test]
    fn no_declaration_gets_the_default_policy() {
        let read = item(
            json!({ "uri": "ui://a/b", "mimeType": "text/html;profile=mcp-app", "text": "x" }),
        );
        let v = view("s", "ui://a/b", &[read], None).expect("accepted");
        assert_eq!(v.csp, AppCsp::default());
        assert!(v.policy.starts_with("default-src 'none'"));
        assert!(v.policy.contains("connect-src 'none'"));
    }
}
