//! The tray icon and its menu (`tray_menu` says what is in it): made at start, remade when a
//! request waits or is answered, a server's state or the agents' pause changes, and every few
//! seconds for the agents attached; its items open the window (on a waiting request's dialog),
//! pause or resume all agents, and quit. It also keeps the answer to "does a closed window leave
//! the engine running" current for `main_window`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use gatehouse_host::{EngineEvent, Host};
use tauri::menu::{CheckMenuItem, Menu, MenuItem, PredefinedMenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager, Wry};
use tokio::sync::broadcast;

use crate::tray_menu::{self, TrayItem, TrayState};

const TRAY_ID: &str = "gatehouse";
/// How often the menu is remade with nothing else happening (agents attach and leave without
/// an event).
const TICK: Duration = Duration::from_secs(5);
/// How long a change waits for the ones that come with it before the menu is remade.
const SETTLE: Duration = Duration::from_millis(250);

/// Whether closing the window leaves the engine running (servers enabled or clients set up).
#[derive(Debug, Default)]
pub struct KeepRunning(pub AtomicBool);

impl KeepRunning {
    pub fn get(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Puts the icon in the tray with an empty menu (filled by [`follow`]).
pub fn install(app: &AppHandle) -> tauri::Result<()> {
    let menu = build_menu(app, &tray_menu::items(&TrayState::default()))?;
    let mut builder = TrayIconBuilder::with_id(TRAY_ID)
        .tooltip("Gatehouse")
        .menu(&menu)
        .show_menu_on_left_click(true)
        .on_menu_event(|app, event| on_item(app, event.id().as_ref()));
    if let Some(icon) = app.default_window_icon() {
        builder = builder.icon(icon.clone());
    }
    builder.build(app)?;
    Ok(())
}

/// Remakes the menu on the engine's events and every [`TICK`], until the engine's events end.
pub async fn follow(app: AppHandle, mut events: broadcast::Receiver<EngineEvent>) {
    let mut shown: Option<TrayState> = None;
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            event = events.recv() => match event {
                Ok(EngineEvent::TasksChanged { .. } | EngineEvent::ClientProfilesChanged) => continue,
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            },
            _ = tick.tick() => {}
        }
        // A burst (a hundred servers connecting) makes one refresh: what follows within
        // `SETTLE` joins it.
        let settle = tokio::time::sleep(SETTLE);
        tokio::pin!(settle);
        loop {
            tokio::select! {
                _ = &mut settle => break,
                event = events.recv() => {
                    if let Err(broadcast::error::RecvError::Closed) = event {
                        return;
                    }
                }
            }
        }
        refresh(&app, &mut shown).await;
    }
}

/// Reads the engine's state and remakes the menu if it says something new (`shown`: what it
/// says now).
async fn refresh(app: &AppHandle, shown: &mut Option<TrayState>) {
    let Some(host) = app.try_state::<Arc<Host>>().map(|h| h.inner().clone()) else {
        return;
    };
    let state = state(app, &host).await;
    if shown.as_ref() == Some(&state) {
        return;
    }
    if let Some(tray) = app.tray_by_id(TRAY_ID) {
        match build_menu(app, &tray_menu::items(&state)) {
            Ok(menu) => {
                if let Err(e) = tray.set_menu(Some(menu)) {
                    tracing::warn!("cannot update the tray menu: {e}");
                }
            }
            Err(e) => tracing::warn!("cannot make the tray menu: {e}"),
        }
    }
    *shown = Some(state);
}

async fn state(app: &AppHandle, host: &Host) -> TrayState {
    let pending = host
        .pending_approvals()
        .iter()
        .map(tray_menu::pending_line)
        .collect();
    let (mut connected, mut failing, mut enabled) = (0, 0, 0);
    match host.list_servers().await {
        Ok(servers) => {
            for server in &servers {
                let (up, down) = tray_menu::server_tally(&server.status);
                connected += usize::from(up);
                failing += usize::from(down);
                enabled += usize::from(server.config.enabled);
            }
        }
        Err(e) => tracing::warn!("cannot list the servers for the tray: {e}"),
    }
    let clients = match host.clients().list().await {
        Ok(clients) => clients.len(),
        Err(e) => {
            tracing::warn!("cannot list the clients for the tray: {e}");
            0
        }
    };
    if let Some(keep) = app.try_state::<KeepRunning>() {
        keep.0.store(
            crate::main_window::keeps_running(enabled, clients),
            Ordering::Relaxed,
        );
    }
    // Agents with a session now, through `gatehouse mcp` or the HTTP endpoint.
    let agents = host.gateway_presence().attached();
    TrayState {
        pending,
        servers_connected: connected,
        servers_failing: failing,
        agents_connected: agents,
        agents_paused: host.agents_paused(),
    }
}

fn build_menu(app: &AppHandle, items: &[TrayItem]) -> tauri::Result<Menu<Wry>> {
    let menu = Menu::new(app)?;
    for item in items {
        let id = item.id().unwrap_or_default();
        match item {
            TrayItem::Info(text) => {
                menu.append(&MenuItem::new(app, text, false, None::<&str>)?)?;
            }
            TrayItem::Approval { label, .. } => {
                menu.append(&MenuItem::with_id(app, id, label, true, None::<&str>)?)?;
            }
            TrayItem::Separator => menu.append(&PredefinedMenuItem::separator(app)?)?,
            TrayItem::Open => {
                menu.append(&MenuItem::with_id(
                    app,
                    id,
                    "Open Gatehouse",
                    true,
                    None::<&str>,
                )?)?;
            }
            TrayItem::Pause { paused } => menu.append(&CheckMenuItem::with_id(
                app,
                id,
                "Pause all agents",
                true,
                *paused,
                None::<&str>,
            )?)?,
            TrayItem::Quit => {
                menu.append(&MenuItem::with_id(
                    app,
                    id,
                    "Quit Gatehouse",
                    true,
                    None::<&str>,
                )?)?;
            }
        }
    }
    Ok(menu)
}

fn on_item(app: &AppHandle, id: &str) {
    match id {
        tray_menu::QUIT => app.exit(0),
        tray_menu::PAUSE => {
            let app = app.clone();
            tauri::async_runtime::spawn(async move {
                let Some(host) = app.try_state::<Arc<Host>>().map(|h| h.inner().clone()) else {
                    return;
                };
                let paused = !host.agents_paused();
                if let Err(e) = host.set_agents_paused(paused).await {
                    tracing::warn!("cannot pause or resume the agents: {e}");
                }
                // The pause's event remakes the menu (`follow`).
            });
        }
        _ => match id.strip_prefix(tray_menu::APPROVAL_PREFIX) {
            Some(approval) => crate::main_window::open_on_approval(app, approval),
            None => crate::main_window::open(app),
        },
    }
}
