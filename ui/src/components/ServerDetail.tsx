// Detail pane for the selected server: its era in the header and its connection state
// (`ConnectionPanel`) above the tabs, shown on every tab; its tools (or what it offers instead),
// its tasks and configuration on the Overview tab; the tool calls made from this window on the
// History tab (`CallHistory`); its resources and templates on the Resources tab
// (`resources/ResourcesTab`), its prompts on the Prompts tab (`prompts/PromptsTab`); its stderr on
// the Logs tab (`ServerLogs`, `useServerLogs`); its JSON-RPC messages on the Traffic tab
// (`traffic/TrafficTab`); an HTTP server's sign-in on the Sign-in tab (`ServerAuth`).
// The tabs are Radix Tabs (tab panels, arrow keys). A server without tools is not asked for
// them: `useTools` runs only when a connected (or degraded) server offers tools. What the server
// says about itself (name, version) is cut for display.

import { ServerIcon } from "./ServerIcon";
import * as Tabs from "@radix-ui/react-tabs";
import { useState } from "react";
import { useSearchParams } from "react-router";
import type { ServerView } from "../api/gatehouse";
import { useServerAuth } from "../hooks/useServerAuth";
import { useTasks } from "../hooks/useTasks";
import { useTools } from "../hooks/useTools";
import { capText, MAX_NAME_CHARS } from "../model/capText";
import { eraLabel } from "../model/describeStatus";
import { ConnectionPanel } from "./ConnectionPanel";
import { CallHistory } from "./history/CallHistory";
import { ServerAuth } from "./ServerAuth";
import { ServerConfigSummary } from "./ServerConfigSummary";
import { ServerLogs } from "./ServerLogs";
import { TaskList } from "./TaskList";
import { TrafficTab } from "./traffic/TrafficTab";
import { NoToolsOffered, ToolList } from "./ToolList";
import { PromptsTab } from "./prompts/PromptsTab";
import { ResourcesTab } from "./resources/ResourcesTab";

type ServerDetailProps = {
  view: ServerView;
  busy: boolean;
  onReconnect: () => void;
  onStop?: () => void;
  onStart?: () => void;
  onEnable: () => void;
  onEdit: () => void;
  onClose: () => void;
};

type Tab = "overview" | "history" | "resources" | "prompts" | "logs" | "traffic" | "auth";

/** The detail's tabs, in order, with their labels; only HTTP servers sign in. */
function tabsOf(http: boolean): [Tab, string][] {
  const tabs: [Tab, string][] = [
    ["overview", "Overview"],
    ["history", "History"],
    ["resources", "Resources"],
    ["prompts", "Prompts"],
    ["logs", "Logs"],
    ["traffic", "Traffic"],
  ];
  return http ? [...tabs, ["auth", "Sign-in"]] : tabs;
}

export function ServerDetail({ view, busy, onReconnect, onStop, onStart, onEnable, onEdit, onClose }: ServerDetailProps) {
  const { config, status } = view;
  const connected = status.state === "connected";
  // A server that did not declare tools is never asked for them. A degraded server keeps the
  // tools it listed while connected (the engine still holds them).
  const offersTools = (connected && status.offers.includes("tools")) || status.state === "degraded";
  const tools = useTools(config.id, offersTools);
  // The task log is kept whatever the connection state, so tasks are shown for every server.
  const tasks = useTasks(config.id);
  const http = config.spec.kind === "http";
  const auth = useServerAuth(config.id, http);
  const [chosenTab, setTab] = useState<Tab>("overview");
  const offers = connected ? status.offers : [];
  const completes = offers.includes("completions");
  // A server edited from HTTP to stdio loses its Sign-in tab.
  const tab = chosenTab === "auth" && !http ? "overview" : chosenTab;
  // A tool's Call form asked for by URL (the command palette) is on the Overview tab.
  const askedTool = useSearchParams()[0].get("tool");
  const [seenTool, setSeenTool] = useState(askedTool);
  if (askedTool !== seenTool) {
    setSeenTool(askedTool);
    if (askedTool !== null) setTab("overview");
  }
  return (
    <section className="server-detail" data-testid="server-detail" aria-labelledby="detail-heading">
      <header className="detail-header">
        <div className="detail-title">
          <ServerIcon id={config.id} name={config.name} status={status} size="large" />
          <div>
            <h2 id="detail-heading">{config.name}</h2>
            {status.state === "connected" && (
              <p className="muted detail-subtitle">
                {capText(status.serverName, MAX_NAME_CHARS)} {capText(status.serverVersion, MAX_NAME_CHARS)} · MCP{" "}
                {capText(status.protocolVersion, MAX_NAME_CHARS)} ·{" "}
                <span data-testid="server-era" title={`Chosen by Gatehouse for this server: ${eraLabel(status.era)}`}>
                  {eraLabel(status.era)}
                </span>
              </p>
            )}
          </div>
        </div>
        <div className="detail-header-actions">
          <button type="button" className="button button-small" onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="button button-small" onClick={onClose}>
            Close
          </button>
        </div>
      </header>
      <ConnectionPanel
        status={status}
        busy={busy}
        onReconnect={onReconnect}
        onStop={onStop ?? onReconnect}
        onStart={onStart ?? onReconnect}
        onEnable={onEnable}
        onSignIn={http ? () => auth.signIn.mutate() : undefined}
        signingIn={auth.signIn.isPending}
      />
      <Tabs.Root value={tab} onValueChange={(id) => setTab(id as Tab)} className="detail-tabs-root">
        <Tabs.List className="detail-tabs" aria-label="Server detail">
          {tabsOf(http).map(([id, label]) => (
            <Tabs.Trigger key={id} value={id} className="detail-tab" data-testid={`tab-${id}`}>
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="overview" className="detail-tab-panel">
          {offersTools ? (
            <ToolList serverId={config.id} state={tools} />
          ) : status.state === "connected" ? (
            <NoToolsOffered offers={status.offers} />
          ) : (
            <section className="detail-section">
              <h3>Tools</h3>
              <p className="muted">Tools are listed once the server is connected.</p>
            </section>
          )}
          <TaskList state={tasks} />
          <section className="detail-section" aria-labelledby="config-heading">
            <h3 id="config-heading">Configuration</h3>
            <ServerConfigSummary config={config} />
          </section>
        </Tabs.Content>
        <Tabs.Content value="history" className="detail-tab-panel">
          <CallHistory serverId={config.id} />
        </Tabs.Content>
        <Tabs.Content value="resources" className="detail-tab-panel">
          <ResourcesTab
            serverId={config.id}
            offered={offers.includes("resources")}
            completes={completes}
            connected={connected}
          />
        </Tabs.Content>
        <Tabs.Content value="prompts" className="detail-tab-panel">
          <PromptsTab serverId={config.id} offered={offers.includes("prompts")} completes={completes} connected={connected} />
        </Tabs.Content>
        <Tabs.Content value="logs" className="detail-tab-panel">
          <ServerLogs serverId={config.id} />
        </Tabs.Content>
        <Tabs.Content value="traffic" className="detail-tab-panel">
          <TrafficTab serverId={config.id} />
        </Tabs.Content>
        {http && (
          <Tabs.Content value="auth" className="detail-tab-panel">
            <ServerAuth auth={auth} />
          </Tabs.Content>
        )}
      </Tabs.Root>
    </section>
  );
}
