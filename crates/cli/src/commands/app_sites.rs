//! `gatehouse app-sites list|allow|block|remove`: the person's global lists of outside sites
//! MCP App views may reach, shared with the app (its next view follows them). Each change is
//! audited.

use gatehouse_host::{AppSites, Host, HostError, SiteList};
use serde_json::json;

use crate::args::AppSitesCommand;
use crate::output;

pub async fn run(host: &Host, command: AppSitesCommand) -> Result<(), HostError> {
    match command {
        AppSitesCommand::List { json } => {
            let sites = host.app_sites().await?;
            if json {
                return output::print_json(&json!(sites));
            }
            if sites.allow.is_empty() && sites.block.is_empty() {
                say!("no app site lists: app views may reach the sites they declare");
                return Ok(());
            }
            output::print_table(["DOMAIN", "LIST"], &rows(&sites));
            Ok(())
        }
        AppSitesCommand::Allow { domain } => put(host, SiteList::Allow, &domain).await,
        AppSitesCommand::Block { domain } => put(host, SiteList::Block, &domain).await,
        AppSitesCommand::Remove { domain } => {
            host.remove_app_site(&domain).await?;
            say!("{} is on neither app site list now", domain.trim());
            Ok(())
        }
    }
}

async fn put(host: &Host, list: SiteList, domain: &str) -> Result<(), HostError> {
    let sites = host.add_app_site(list, domain).await?;
    let added = gatehouse_host::apps::sites::domain(domain)?;
    match list {
        SiteList::Allow => say!(
            "app views may reach {added} and its subdomains when they declare them; the allow list has {} entr{}",
            sites.allow.len(),
            if sites.allow.len() == 1 { "y" } else { "ies" }
        ),
        SiteList::Block => say!("app views may not reach {added} or its subdomains"),
    }
    Ok(())
}

fn rows(sites: &AppSites) -> Vec<[String; 2]> {
    let allow = sites.allow.iter().map(|d| [d.clone(), "allow".to_owned()]);
    let block = sites.block.iter().map(|d| [d.clone(), "block".to_owned()]);
    allow.chain(block).collect()
}
