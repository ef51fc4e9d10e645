//! The app's own IPC commands, as Tauri's access control knows them. `build.rs` declares them
//! in the app manifest (each gets an `allow-<command>` permission), and
//! `capabilities/main.json` grants every one of them to the `main` webview alone. With a
//! manifest, Tauri checks each command against the capabilities of the webview that sends it,
//! so a webview without a capability (an app view's) runs none, whatever invoke key it has. A
//! command missing here is refused at run time even from the window: the tests below compare
//! this list with the commands registered (`bindings::specta_builder`) and with the capability.

/// Every command the invoke handler registers, by its IPC name.
pub const IPC_COMMANDS: &[&str] = &[
    "list_servers",
    "add_server",
    "update_server",
    "remove_server",
    "set_server_enabled",
    "reconnect_server",
    "stop_server",
    "start_server",
    "list_tools",
    "server_icon",
    "list_tasks",
    "call_tool",
    "cancel_call",
    "list_resources_page",
    "list_resource_templates_page",
    "read_resource",
    "subscribe_resource",
    "unsubscribe_resource",
    "save_resource_contents",
    "list_prompts_page",
    "get_prompt",
    "complete_argument",
    "server_logs",
    "server_traffic",
    "list_approvals",
    "answer_approval",
    "list_grants",
    "revoke_grant",
    "open_external_url",
    "describe_url",
    "take_chosen_approval",
    "start_at_login",
    "set_start_at_login",
    "agents_paused",
    "set_agents_paused",
    "engine_settings",
    "set_engine_settings",
    "data_dir",
    "open_data_dir",
    "about",
    "add_demo_server",
    "auth_status",
    "sign_in",
    "sign_out",
    "forget_idp_sign_in",
    "audit_list",
    "audit_search",
    "audit_verify",
    "audit_export",
    "audit_export_suggestion",
    "clients_list",
    "clients_show",
    "clients_profile",
    "clients_set_profile",
    "clients_add",
    "clients_remove",
    "clients_create_token",
    "clients_revoke_token",
    "clients_set_prefix",
    "gateway_http_settings",
    "gateway_set_http",
    "policy_rules",
    "policy_servers",
    "policy_add_rule",
    "policy_remove_rule",
    "policy_set_server_default",
    "policy_set_trust_read_only",
    "policy_definition_history",
    "app_open_view",
    "app_close_view",
    "app_call_tool",
    "app_read_resource",
    "app_list_resources",
    "app_list_resource_templates",
    "app_list_tools",
    "app_create_message",
    "app_open_link",
    "app_download_file",
    "app_place_view",
    "app_post_to_view",
    "app_sites",
    "app_site_add",
    "app_site_remove",
    "agents_found",
    "import_preview",
    "import_apply",
    "connect_preview",
    "connect_apply",
    "connect_undo",
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::IPC_COMMANDS;

    const CAPABILITY: &str = include_str!("../capabilities/main.json");

    fn declared() -> BTreeSet<String> {
        IPC_COMMANDS.iter().map(|c| (*c).to_owned()).collect()
    }

    #[test]
    fn the_manifest_declares_exactly_the_registered_commands() {
        let registered: BTreeSet<String> = crate::bindings::command_names().into_iter().collect();
        let declared = declared();
        assert_eq!(
            IPC_COMMANDS.len(),
            declared.len(),
            "no command is declared twice"
        );
        let missing: Vec<_> = registered.difference(&declared).collect();
        assert!(
            missing.is_empty(),
            "registered but not in the app manifest, so Tauri would refuse them: {missing:?}"
        );
        let stale: Vec<_> = declared.difference(&registered).collect();
        assert!(
            stale.is_empty(),
            "in the app manifest but not registered: {stale:?}"
        );
    }

    #[test]
    fn the_main_webview_alone_is_granted_every_command() {
        let capability: serde_json::Value = serde_json::from_str(CAPABILITY).expect("JSON");
        assert_eq!(
            capability["webviews"],
            serde_json::json!(["main"]),
            "granted to the main webview by its label"
        );
        assert!(
            capability.get("windows").is_none(),
            "a capability naming the window would also reach the app views' webviews in it \
             (Tauri matches a capability's windows or its webviews)"
        );
        assert!(
            capability.get("remote").is_none(),
            "no remote origin gets the app's commands"
        );
        let granted: BTreeSet<String> = capability["permissions"]
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|p| p.as_str())
            .map(str::to_owned)
            .collect();
        let expected: BTreeSet<String> = IPC_COMMANDS
            .iter()
            .map(|c| format!("allow-{}", c.replace('_', "-")))
            .chain(["core:default".to_owned(), "notification:default".to_owned()])
            .collect();
        assert_eq!(granted, expected);
    }
}
