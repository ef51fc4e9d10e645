// One-line summary of a server's launch spec for the list: the command line or the URL.

import type { ServerSpec } from "../api/gatehouse";

export function summarizeSpec(spec: ServerSpec): string {
  if (spec.kind === "http") return spec.url;
  return [spec.command, ...spec.args.map(quoteArg)].join(" ");
}

// Quote only where needed so the summary reads like a shell command.
function quoteArg(arg: string): string {
  if (arg === "") return '""';
  return /[\s"'\\$`]/.test(arg) ? `"${arg.replace(/(["\\$`])/g, "\\$1")}"` : arg;
}
