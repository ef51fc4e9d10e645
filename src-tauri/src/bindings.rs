//! The IPC contract: every command and event, from which the TypeScript bindings in
//! `ui/src/bindings/index.ts` are generated (`cargo run -p gatehouse-app --bin gatehouse-bindings`).

use std::path::Path;

use specta_typescript::Typescript;
use tauri_specta::{Builder, Commands, collect_commands, collect_events};

use crate::apps::relay::AppViewMessagesEvent;
use crate::events::{
    AgentsPausedEvent, ApprovalsChangedEvent, ServerStatusEvent, TasksChangedEvent,
};
use crate::log_events::ServerLogEvent;
use crate::main_window::ApprovalChosenEvent;
use crate::traffic_events::ServerTrafficEvent;
use crate::{
    app_commands, app_site_commands, app_view_commands, approval_commands, audit_commands,
    auth_commands, client_commands, commands, connect_commands, first_run_commands,
    import_commands, log_events, main_window, offers, policy_commands, settings_commands,
    traffic_events,
};

/// The path of the generated bindings, relative to the repository root.
pub const BINDINGS_PATH: &str = "ui/src/bindings/index.ts";

/// The specta builder shared by the app and the bindings generator.
pub fn specta_builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new()
        .commands(commands())
        .events(collect_events![
            ServerStatusEvent,
            TasksChangedEvent,
            ApprovalsChangedEvent,
            ServerLogEvent,
            ServerTrafficEvent,
            AppViewMessagesEvent,
            AgentsPausedEvent,
            ApprovalChosenEvent
        ])
        // JSON values (tool schemas) hold numbers; they cross IPC as JSON, so as JS numbers.
        .dangerously_cast_bigints_to_number()
        // One TypeScript type per Rust type: the UI reads and writes the same shapes.
        .disable_serde_phases()
}

/// Every command the window may invoke. Each must also be in `ipc_commands::IPC_COMMANDS` (the
/// app manifest), or Tauri refuses it.
fn commands() -> Commands<tauri::Wry> {
    collect_commands![
        commands::list_servers,
        commands::add_server,
        commands::update_server,
        commands::remove_server,
        commands::set_server_enabled,
        commands::reconnect_server,
        commands::stop_server,
        commands::start_server,
        commands::list_tools,
        commands::server_icon,
        commands::list_tasks,
        commands::call_tool,
        commands::cancel_call,
        offers::resource_commands::list_resources_page,
        offers::resource_commands::list_resource_templates_page,
        offers::resource_commands::read_resource,
        offers::resource_commands::subscribe_resource,
        offers::resource_commands::unsubscribe_resource,
        offers::resource_commands::save_resource_contents,
        offers::prompt_commands::list_prompts_page,
        offers::prompt_commands::get_prompt,
        offers::prompt_commands::complete_argument,
        log_events::server_logs,
        traffic_events::server_traffic,
        approval_commands::list_approvals,
        approval_commands::answer_approval,
        approval_commands::list_grants,
        approval_commands::revoke_grant,
        approval_commands::open_external_url,
        approval_commands::describe_url,
        main_window::take_chosen_approval,
        settings_commands::start_at_login,
        settings_commands::set_start_at_login,
        settings_commands::agents_paused,
        settings_commands::set_agents_paused,
        settings_commands::engine_settings,
        settings_commands::set_engine_settings,
        settings_commands::data_dir,
        settings_commands::open_data_dir,
        settings_commands::about,
        first_run_commands::add_demo_server,
        auth_commands::auth_status,
        auth_commands::sign_in,
        auth_commands::sign_out,
        auth_commands::forget_idp_sign_in,
        audit_commands::audit_list,
        audit_commands::audit_search,
        audit_commands::audit_verify,
        audit_commands::audit_export,
        audit_commands::audit_export_suggestion,
        client_commands::clients_list,
        client_commands::clients_show,
        client_commands::clients_profile,
        client_commands::clients_set_profile,
        client_commands::clients_add,
        client_commands::clients_remove,
        client_commands::clients_create_token,
        client_commands::clients_revoke_token,
        client_commands::clients_set_prefix,
        client_commands::gateway_http_settings,
        client_commands::gateway_set_http,
        policy_commands::policy_rules,
        policy_commands::policy_servers,
        policy_commands::policy_add_rule,
        policy_commands::policy_remove_rule,
        policy_commands::policy_set_server_default,
        policy_commands::policy_set_trust_read_only,
        policy_commands::policy_definition_history,
        app_commands::app_open_view,
        app_commands::app_close_view,
        app_commands::app_call_tool,
        app_commands::app_read_resource,
        app_commands::app_list_resources,
        app_commands::app_list_resource_templates,
        app_commands::app_list_tools,
        app_commands::app_create_message,
        app_commands::app_open_link,
        app_commands::app_download_file,
        app_view_commands::app_place_view,
        app_view_commands::app_post_to_view,
        app_site_commands::app_sites,
        app_site_commands::app_site_add,
        app_site_commands::app_site_remove,
        import_commands::agents_found,
        import_commands::import_preview,
        import_commands::import_apply,
        connect_commands::connect_preview,
        connect_commands::connect_apply,
        connect_commands::connect_undo,
    ]
}

/// The names of the commands [`specta_builder`] registers.
pub fn command_names() -> Vec<String> {
    let collected = (commands().1)(&mut specta::Types::default());
    collected
        .functions
        .iter()
        .map(|function| function.name().to_string())
        .collect()
}

/// Writes the TypeScript bindings to `path`.
pub fn export_bindings(path: &Path) -> Result<(), String> {
    let typescript = Typescript::default()
        .header("// Generated by `gatehouse-bindings` from the Rust IPC contract. Do not edit.\n");
    specta_builder()
        .export(typescript, path)
        .map_err(|e| e.to_string())
}
