// Parses the arguments textarea (one argument per line) into the argv list.

/** Each non-blank line is one argument, trimmed; no shell quoting or splitting happens. */
export function parseArgLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** Inverse of parseArgLines, used to pre-fill the edit form. */
export function formatArgLines(args: readonly string[]): string {
  return args.join("\n");
}
