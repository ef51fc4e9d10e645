// Validates the add/edit form client-side (mirroring the engine's rules) and builds a ServerInput.

import type { ServerInput } from "../api/gatehouse";
import { parseArgLines } from "./parseArgLines";
import { parseEnvLines } from "./parseEnvLines";
import { parseHeaderLines } from "./parseHeaderLines";
import type { ServerFormErrors, ServerFormValues } from "./serverFormValues";
import { validateHttpUrl } from "./validateHttpUrl";

export type BuildResult = { ok: true; input: ServerInput } | { ok: false; errors: ServerFormErrors };

/** Only the fields of the selected kind are validated and sent. */
export function buildServerInput(values: ServerFormValues): BuildResult {
  const errors: ServerFormErrors = {};
  const name = values.name.trim();
  if (name === "") errors.name = "name must not be empty";

  if (values.kind === "stdio") {
    const command = values.command.trim();
    if (command === "") errors.command = "command must not be empty";
    const env = parseEnvLines(values.env);
    if (!env.ok) errors.env = env.errors.join("; ");
    if (!env.ok || errors.name !== undefined || errors.command !== undefined) return { ok: false, errors };
    const cwd = values.cwd.trim();
    return {
      ok: true,
      input: {
        name,
        enabled: values.enabled,
        spec: { kind: "stdio", command, args: parseArgLines(values.args), env: env.items, cwd: cwd === "" ? null : cwd },
      },
    };
  }

  const urlError = validateHttpUrl(values.url);
  if (urlError !== null) errors.url = urlError;
  const headers = parseHeaderLines(values.headers);
  if (!headers.ok) errors.headers = headers.errors.join("; ");
  if (!headers.ok || errors.name !== undefined || errors.url !== undefined) return { ok: false, errors };
  return {
    ok: true,
    input: {
      name,
      enabled: values.enabled,
      spec: { kind: "http", url: values.url.trim(), transport: values.transport, headers: headers.items },
    },
  };
}
