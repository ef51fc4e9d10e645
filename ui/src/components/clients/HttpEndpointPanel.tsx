// The gateway's Streamable HTTP endpoint: on or off, its port, and what the app serves now
// (listening, starting, or a port it cannot have, with the reason).

import { useMutation, useQueryClient } from "@tanstack/react-query";
import * as Switch from "@radix-ui/react-switch";
import { useState } from "react";
import type { FormEvent } from "react";
import type { HttpEndpoint } from "../../api/gatehouse";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { ErrorBanner } from "../ErrorBanner";
import { clientKeys, useGatewayHttp } from "./clientQueries";

export function HttpEndpointPanel() {
  const http = useGatewayHttp();
  const client = useQueryClient();
  const set = useMutation({
    mutationFn: ({ enabled, port }: { enabled: boolean; port: number | null }) => api.gatewaySetHttp(enabled, port),
    onSuccess: (endpoint) => client.setQueryData(clientKeys.http, endpoint),
    onSettled: () => client.invalidateQueries({ queryKey: clientKeys.http }),
  });

  let content;
  if (http.isPending) {
    content = <p className="muted">Reading the HTTP setting…</p>;
  } else if (http.error !== null) {
    content = <ErrorBanner message={`Could not read the HTTP setting: ${errorMessage(http.error)}`} onRetry={() => void http.refetch()} />;
  } else {
    const endpoint = http.data;
    content = (
      <div className="gateway-http">
        <Switch.Root
          checked={endpoint.enabled}
          onCheckedChange={(enabled) => set.mutate({ enabled, port: null })}
          aria-label="Serve agents over HTTP"
          className={`switch${endpoint.enabled ? " switch-on" : ""}`}
          data-testid="gateway-http-toggle"
          disabled={set.isPending}
        >
          <span className="switch-track" aria-hidden="true">
            <Switch.Thumb className="switch-thumb" />
          </span>
          <span className="switch-text">{endpoint.enabled ? "On" : "Off"}</span>
        </Switch.Root>
        <PortForm key={endpoint.port} endpoint={endpoint} busy={set.isPending} onPort={(port) => set.mutate({ enabled: endpoint.enabled, port })} />
        <p className="muted" data-testid="gateway-http-state" role="status">
          {describe(endpoint)}
        </p>
      </div>
    );
  }

  return (
    <section className="policy-section" aria-labelledby="gateway-http-heading" data-testid="gateway-http">
      <h2 id="gateway-http-heading">HTTP endpoint</h2>
      {set.error !== null && <ErrorBanner message={`Could not change the HTTP setting: ${errorMessage(set.error)}`} onDismiss={() => set.reset()} />}
      {content}
    </section>
  );
}

/** What the app does with the setting, in words. */
export function describe(endpoint: HttpEndpoint): string {
  const { serving } = endpoint;
  if (!endpoint.enabled) {
    return serving.state === "off" ? "Off: agents connect over stdio (gatehouse mcp)." : "Stopping…";
  }
  switch (serving.state) {
    case "listening":
      return serving.port === endpoint.port ? `Serving ${endpoint.url} to clients with a token.` : `Moving to port ${endpoint.port}…`;
    case "failed":
      return `Cannot listen on port ${serving.port}: ${serving.error}. Gatehouse tries again every few seconds; another port may be free.`;
    case "off":
      return "Starting…";
  }
}

type PortFormProps = { endpoint: HttpEndpoint; busy: boolean; onPort: (port: number) => void };

function PortForm({ endpoint, busy, onPort }: PortFormProps) {
  const [text, setText] = useState(String(endpoint.port));
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const port = Number(text);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      setProblem("The port must be a whole number from 1 to 65535.");
      return;
    }
    setProblem(null);
    if (port !== endpoint.port) onPort(port);
  };
  return (
    <form className="gateway-http-port" onSubmit={submit} noValidate>
      <label>
        Port{" "}
        <input
          className="input input-compact"
          type="number"
          min={1}
          max={65535}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="gateway-http-port"
        />
      </label>
      <button type="submit" className="button button-small" disabled={busy || text === String(endpoint.port)}>
        Change port
      </button>
      {problem !== null && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
