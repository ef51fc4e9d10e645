// A profile (a client's, or the default one every client's lies over): each server and each
// of its tools (as Gatehouse last listed them) on or off, resources and prompts, and the
// limits. A setting the profile makes itself can be handed back to the profile below. Every
// change goes through `clients_set_profile` at once; a failed one is shown until dismissed.

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { FormEvent } from "react";
import type { ClientProfile, ProfileChange, ProfileSetting, ServerView } from "../../api/gatehouse";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { useTools } from "../../hooks/useTools";
import { ErrorBanner } from "../ErrorBanner";
import { profileChange, useRefreshClients } from "./clientQueries";
import { ProfileSwitch } from "./ProfileSwitch";

type ClientProfileEditorProps = {
  /** The client; null: the default profile. */
  name: string | null;
  profile: ClientProfile;
  servers: ServerView[];
};

export function ClientProfileEditor({ name, profile, servers }: ClientProfileEditorProps) {
  const refresh = useRefreshClients();
  const set = useMutation({
    mutationFn: (change: ProfileChange) => api.clientsSetProfile(name, change),
    onSettled: refresh,
  });
  const apply = (part: Partial<ProfileChange>) => set.mutate(profileChange(part));
  const reset = (setting: ProfileSetting) => apply({ reset: [setting] });
  const { own, effective } = profile;
  const busy = set.isPending;
  const below = name === null ? "Gatehouse's" : "default";

  return (
    <div className="client-profile" data-testid="client-profile">
      {set.error !== null && (
        <ErrorBanner message={`Could not change the profile: ${errorMessage(set.error)}`} onDismiss={() => set.reset()} />
      )}
      <h3>Servers and tools</h3>
      {servers.length === 0 ? (
        <p className="muted">No servers yet. Add one on the Servers page.</p>
      ) : (
        <ul className="client-servers">
          {servers.map((server) => (
            <ServerItem
              key={server.config.id}
              server={server}
              profile={profile}
              busy={busy}
              below={below}
              onServer={(on) => apply({ servers: [{ server: server.config.name, on }] })}
              onTool={(tool, on) => apply({ tools: [{ server: server.config.name, tool, on }] })}
              onReset={reset}
            />
          ))}
        </ul>
      )}
      <h3>Resources and prompts</h3>
      <div className="client-switches">
        <label className="client-switch-row">
          <span>Resources</span>
          <ProfileSwitch
            label="Resources"
            on={effective.resources ?? true}
            own={own.resources !== undefined && own.resources !== null}
            busy={busy}
            testId="client-resources"
            onChange={(on) => apply({ resources: on })}
            onReset={() => reset({ kind: "resources" })}
            below={below}
          />
        </label>
        <label className="client-switch-row">
          <span>Prompts</span>
          <ProfileSwitch
            label="Prompts"
            on={effective.prompts ?? true}
            own={own.prompts !== undefined && own.prompts !== null}
            busy={busy}
            testId="client-prompts"
            onChange={(on) => apply({ prompts: on })}
            onReset={() => reset({ kind: "prompts" })}
            below={below}
          />
        </label>
      </div>
      <h3>Servers' questions</h3>
      <div className="client-switches">
        <label className="client-switch-row">
          <span title="When a server asks for sampling or elicitation during this client's call and the client cannot answer it, ask me in Gatehouse. Off: the server is not offered what the client cannot answer.">
            Ask me what the client cannot answer
          </span>
          <ProfileSwitch
            label="Ask me what the client cannot answer"
            on={effective.askPerson ?? true}
            own={own.askPerson !== undefined && own.askPerson !== null}
            busy={busy}
            testId="client-ask-person"
            onChange={(on) => apply({ askPerson: on })}
            onReset={() => reset({ kind: "askPerson" })}
            below={below}
          />
        </label>
      </div>
      <h3>Limits</h3>
      <LimitsForm key={JSON.stringify(profile.limits)} profile={profile} busy={busy} onApply={apply} />
      {ownsLimits(profile) && (
        <button
          type="button"
          className="button button-small"
          disabled={busy}
          onClick={() => reset({ kind: "limits" })}
          data-testid="client-limits-reset"
        >
          Use {name === null ? "Gatehouse's" : "the default profile's"} limits
        </button>
      )}
    </div>
  );
}

/** Whether the profile sets any limit itself. */
function ownsLimits({ own }: ClientProfile): boolean {
  return [own.maxInFlight, own.perMinute, own.maxMessageBytes].some((n) => n !== undefined && n !== null);
}

type ServerItemProps = {
  server: ServerView;
  profile: ClientProfile;
  busy: boolean;
  below: string;
  onServer: (on: boolean) => void;
  onTool: (tool: string, on: boolean) => void;
  onReset: (setting: ProfileSetting) => void;
};

function ServerItem({ server, profile, busy, below, onServer, onTool, onReset }: ServerItemProps) {
  const serverName = server.config.name;
  const { tools, error } = useTools(server.config.id, server.status.state === "connected");
  const on = profile.effective.servers?.[serverName] ?? true;
  const own = profile.own.servers?.[serverName] !== undefined;
  return (
    <li className="client-server" data-testid="client-server" data-server-name={serverName}>
      <div className="client-switch-row">
        <strong>{serverName}</strong>
        <ProfileSwitch
          label={`Serve ${serverName}`}
          on={on}
          own={own}
          busy={busy}
          testId="client-server-toggle"
          onChange={onServer}
          onReset={() => onReset({ kind: "server", server: serverName })}
          below={below}
        />
      </div>
      {error !== null && <p className="muted">Its tools could not be listed: {error}</p>}
      {tools === null ? (
        <p className="muted">Its tools are listed once it is connected.</p>
      ) : (
        <ul className="client-tools">
          {tools.map((tool) => (
            <li key={tool.name} className="client-switch-row" data-testid="client-tool" data-tool-name={tool.name}>
              <span>{tool.name}</span>
              <ProfileSwitch
                label={`Serve ${serverName} ${tool.name}`}
                on={profile.effective.tools?.[serverName]?.[tool.name] ?? true}
                own={profile.own.tools?.[serverName]?.[tool.name] !== undefined}
                busy={busy || !on}
                testId="client-tool-toggle"
                onChange={(toolOn) => onTool(tool.name, toolOn)}
                onReset={() => onReset({ kind: "tool", server: serverName, tool: tool.name })}
                below={below}
              />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

type LimitsFormProps = {
  profile: ClientProfile;
  busy: boolean;
  onApply: (part: Partial<ProfileChange>) => void;
};

/** The limits as numbers; only the ones changed are sent. Per minute empty or 0: no limit. */
function LimitsForm({ profile, busy, onApply }: LimitsFormProps) {
  const { limits } = profile;
  const [inFlight, setInFlight] = useState(String(limits.maxInFlight));
  const [perMinute, setPerMinute] = useState(limits.perMinute === null ? "" : String(limits.perMinute));
  const [maxBytes, setMaxBytes] = useState(String(limits.maxMessageBytes));
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const read = (text: string, what: string, min: number): number | null => {
      const n = Number(text.trim() === "" ? "0" : text);
      if (!Number.isInteger(n) || n < min) throw new Error(`${what} must be a whole number of at least ${min}`);
      return n;
    };
    try {
      const part: Partial<ProfileChange> = {};
      const f = read(inFlight, "Requests at once", 1);
      if (f !== limits.maxInFlight) part.maxInFlight = f;
      const p = read(perMinute, "Requests per minute", 0);
      if (p !== (limits.perMinute ?? 0)) part.perMinute = p;
      const b = read(maxBytes, "Largest message", 1);
      if (b !== limits.maxMessageBytes) part.maxMessageBytes = b;
      setProblem(null);
      if (Object.keys(part).length > 0) onApply(part);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <form className="client-limits" onSubmit={submit} data-testid="client-limits">
      <label>
        Requests at once
        <input className="input input-compact" type="number" min={1} value={inFlight} onChange={(e) => setInFlight(e.target.value)} />
      </label>
      <label>
        Requests per minute (0: no limit)
        <input className="input input-compact" type="number" min={0} value={perMinute} onChange={(e) => setPerMinute(e.target.value)} />
      </label>
      <label>
        Largest message (bytes)
        <input className="input input-compact" type="number" min={1} value={maxBytes} onChange={(e) => setMaxBytes(e.target.value)} />
      </label>
      <button type="submit" className="button" disabled={busy}>
        Apply limits
      </button>
      {problem !== null && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
