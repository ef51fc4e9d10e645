// The Settings page: starting Gatehouse at login (hidden in the tray; `gatehouse autostart`
// writes the same entry), pausing every agent's requests (as the tray's Pause all agents
// does; the pause follows the engine's event, so a change made in the tray shows here at once),
// the theme, the data directory, the engine's settings, the gateway's HTTP port and default
// profile (the Clients page's panel and a link to it), and About.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { HttpEndpointPanel } from "../clients/HttpEndpointPanel";
import { ErrorBanner } from "../ErrorBanner";
import { AboutSection } from "./AboutSection";
import { DataDirSetting } from "./DataDirSetting";
import { EngineSettingsForm } from "./EngineSettingsForm";
import { SettingSwitch } from "./SettingSwitch";
import { ThemeSetting } from "./ThemeSetting";

const START_AT_LOGIN = ["settings", "startAtLogin"] as const;
const AGENTS_PAUSED = ["settings", "agentsPaused"] as const;

export function SettingsPage() {
  const queries = useQueryClient();
  const login = useQuery({ queryKey: START_AT_LOGIN, queryFn: () => api.startAtLogin() });
  const paused = useQuery({ queryKey: AGENTS_PAUSED, queryFn: () => api.agentsPaused() });
  const setLogin = useMutation({
    mutationFn: (on: boolean) => api.setStartAtLogin(on),
    onSuccess: (status) => queries.setQueryData(START_AT_LOGIN, status),
  });
  const setPaused = useMutation({
    mutationFn: (on: boolean) => api.setAgentsPaused(on),
    onSuccess: (now) => queries.setQueryData(AGENTS_PAUSED, now),
  });
  useEffect(
    () => api.subscribeAgentsPaused((event) => queries.setQueryData(AGENTS_PAUSED, event.paused)),
    [queries],
  );

  return (
    <section className="settings-page" aria-labelledby="settings-heading" data-testid="settings-page">
      <div className="page-toolbar">
        <h1 id="settings-heading">Settings</h1>
      </div>
      <div className="settings-list">
        <SettingSwitch
          id="start-at-login"
          label="Start Gatehouse at login"
          description={
            login.data?.enabled
              ? `Gatehouse starts hidden in the tray when you log in (${login.data.entry}).`
              : "Gatehouse starts hidden in the tray when you log in, so your agents find it running."
          }
          checked={login.data?.enabled ?? false}
          busy={login.isPending || setLogin.isPending}
          onChange={(on) => setLogin.mutate(on)}
        />
        {login.error !== null && <ErrorBanner message={`Could not read the login setting: ${errorMessage(login.error)}`} />}
        {setLogin.error !== null && <ErrorBanner message={`Could not change the login setting: ${errorMessage(setLogin.error)}`} />}
        <SettingSwitch
          id="pause-agents"
          label="Pause all agents"
          description="While paused, every request an agent makes through Gatehouse is asked about, whatever the rules say; where nobody can answer, it is denied. Pausing and resuming are on the audit log."
          checked={paused.data ?? false}
          busy={paused.isPending || setPaused.isPending}
          onChange={(on) => setPaused.mutate(on)}
        />
        {setPaused.error !== null && <ErrorBanner message={`Could not pause the agents: ${errorMessage(setPaused.error)}`} />}
        <ThemeSetting />
        <DataDirSetting />
      </div>
      <section className="settings-section" aria-labelledby="engine-heading">
        <h2 id="engine-heading">Engine</h2>
        <EngineSettingsForm />
      </section>
      <section className="settings-section" aria-labelledby="gateway-heading">
        <h2 id="gateway-heading">Gateway</h2>
        <HttpEndpointPanel />
        <p className="muted">
          What agents see by default (servers, tools, asking you, limits) is the default profile:{" "}
          <a href="#/clients" data-testid="default-profile-link">
            edit it on the Clients page
          </a>
          .
        </p>
      </section>
      <section className="settings-section" aria-labelledby="about-heading">
        <h2 id="about-heading">About</h2>
        <AboutSection />
      </section>
    </section>
  );
}
