//! The app site lists are bounded: past 1000 domains a new one is refused with the reason,
//! while moving a domain already listed to the other list still works.

use gatehouse_host::{Host, HostError, HostOptions, SiteList};

#[tokio::test]
async fn the_app_site_lists_hold_at_most_a_thousand_domains() {
    let dir = tempfile::tempdir().expect("temp dir");
    let host = Host::open(HostOptions {
        data_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    })
    .await
    .expect("open");
    for n in 0..1000 {
        host.add_app_site(SiteList::Block, &format!("site{n}.example"))
            .await
            .expect("within the bound");
    }
    let refused = host.add_app_site(SiteList::Block, "one-more.example").await;
    assert!(
        matches!(&refused, Err(HostError::Validation(m)) if m.contains("at most 1000")),
        "{refused:?}"
    );
    let moved = host
        .add_app_site(SiteList::Allow, "site7.example")
        .await
        .expect("a listed domain moves");
    assert_eq!(moved.allow, ["site7.example"]);
    assert_eq!(moved.block.len(), 999);
}
