//! The skills extension (`io.modelcontextprotocol/skills`, SEP-2640), client side. Listing
//! skills reads no skill file. Loading a skill reads its `SKILL.md` and verifies it against the
//! listed entry before anything is used: the byte size, the `sha256:` digest, and the YAML
//! frontmatter field by field. Each further file of a skill is verified the same way when read.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::client::Client;
use crate::error::{McpError, Result};

/// The extension's identifier in server capabilities.
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// One file of a skill, as listed: where it is and what it must hash to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkillFile {
    pub uri: String,
    pub digest: String,
    pub size: u64,
}

/// A skill as `skills/list` describes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// The skill's `SKILL.md`.
    pub uri: String,
    #[serde(default)]
    pub frontmatter: Map<String, Value>,
    #[serde(default)]
    pub resources: Vec<SkillFile>,
}

/// A skill whose `SKILL.md` passed verification.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedSkill {
    pub skill: Skill,
    pub instructions: String,
}

fn refused(uri: &str, why: String) -> McpError {
    McpError::InvalidResponse {
        method: "resources/read".into(),
        message: format!("refusing skill file {uri}: {why}"),
    }
}

/// Checks content against its listed size and digest.
pub fn verify_file(entry: &SkillFile, text: &str) -> Result<()> {
    let size = text.len() as u64;
    if size != entry.size {
        return Err(refused(
            &entry.uri,
            format!("{size} bytes, but the listing says {}", entry.size),
        ));
    }
    let digest = format!("sha256:{:x}", Sha256::digest(text.as_bytes()));
    if !digest.eq_ignore_ascii_case(&entry.digest) {
        return Err(refused(
            &entry.uri,
            format!("digest {digest} does not match the listed {}", entry.digest),
        ));
    }
    Ok(())
}

/// The `key: value` lines between the leading `---` fences of a SKILL.md.
pub fn frontmatter(text: &str) -> Option<Map<String, Value>> {
    let mut lines = text.lines();
    if lines.next()?.trim() != "---" {
        return None;
    }
    let mut fields = Map::new();
    for line in lines {
        if line.trim() == "---" {
            return Some(fields);
        }
        if let Some((key, value)) = line.split_once(':') {
            let value = value.trim().trim_matches('"').trim_matches('\'');
            fields.insert(key.trim().to_owned(), json!(value));
        }
    }
    None
}

/// Compares the file's frontmatter with the listing's, field by field.
pub fn verify_frontmatter(skill: &Skill, text: &str) -> Result<()> {
    let found =
        frontmatter(text).ok_or_else(|| refused(&skill.uri, "it has no frontmatter".into()))?;
    for (key, listed) in &skill.frontmatter {
        let listed_text = listed
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| listed.to_string());
        let actual = found.get(key).and_then(Value::as_str);
        if actual != Some(listed_text.as_str()) {
            return Err(refused(
                &skill.uri,
                format!("its frontmatter `{key}` differs from the listing"),
            ));
        }
    }
    Ok(())
}

impl Client {
    /// The server's skills. No skill file is read.
    pub async fn list_skills(&self) -> Result<Vec<Skill>> {
        // The extension id contains dots, so it is looked up directly rather than by path.
        let extensions = self.initialize_result().capabilities.get("extensions");
        if extensions.and_then(|e| e.get(SKILLS_EXTENSION)).is_none() {
            return Err(McpError::NotSupported {
                feature: "skills".into(),
                capability: format!("extensions[\"{SKILLS_EXTENSION}\"]"),
            });
        }
        let page = self
            .list_all::<Skill>("skills/list", "skills", None)
            .await?;
        Ok(page.items)
    }

    /// Reads one listed file of a skill and verifies it before returning its text.
    pub async fn read_skill_file(&self, entry: &SkillFile) -> Result<String> {
        let contents = self.read_resource(&entry.uri).await?;
        let text = contents
            .first()
            .and_then(|c| c.text.clone())
            .unwrap_or_default();
        verify_file(entry, &text)?;
        Ok(text)
    }

    /// Loads a skill: reads its `SKILL.md` and verifies size, digest and frontmatter.
    pub async fn load_skill(&self, skill: &Skill) -> Result<LoadedSkill> {
        let entry = skill
            .resources
            .iter()
            .find(|r| r.uri == skill.uri)
            .ok_or_else(|| refused(&skill.uri, "the listing has no digest for it".into()))?;
        let instructions = self.read_skill_file(entry).await?;
        verify_frontmatter(skill, &instructions)?;
        Ok(LoadedSkill {
            skill: skill.clone(),
            instructions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "---\nname: pdf\ndescription: Work with PDFs\n---\nSkill body.\n";

    fn entry(text: &str) -> SkillFile {
        SkillFile {
            uri: "skill://pdf/SKILL.md".into(),
            digest: format!("sha256:{:x}", Sha256::digest(text.as_bytes())),
            size: text.len() as u64,
        }
    }

    #[test]
    fn a_file_must_match_its_size_and_digest() {
        assert!(verify_file(&entry(BODY), BODY).is_ok());
        let tampered = BODY.replace("Skill body.", "Evil body!!");
        assert!(
            verify_file(&entry(BODY), &tampered).is_err_and(|e| e.to_string().contains("digest"))
        );
        let longer = format!("{BODY}extra");
        assert!(verify_file(&entry(BODY), &longer).is_err_and(|e| e.to_string().contains("bytes")));
    }

    #[test]
    fn the_frontmatter_must_match_the_listing() {
        let skill = Skill {
            uri: "skill://pdf/SKILL.md".into(),
            frontmatter: serde_json::from_value(
                json!({"name": "pdf", "description": "Work with PDFs"}),
            )
            .expect("map"),
            resources: vec![entry(BODY)],
        };
        assert!(verify_frontmatter(&skill, BODY).is_ok());
        let evil = BODY.replace("Work with PDFs", "Exfiltrate credentials");
        assert!(
            verify_frontmatter(&skill, &evil).is_err_and(|e| e.to_string().contains("description"))
        );
    }
}
