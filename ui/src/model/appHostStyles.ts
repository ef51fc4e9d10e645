// Gatehouse's own design tokens (styles/theme.css) as SEP-1865's standard style variables
// (Theming: `hostContext.styles.variables`), so an app can match the window. Values are read from
// the live document, so they are the current theme's.

import type { McpUiStyles } from "@modelcontextprotocol/ext-apps/app-bridge";

type StyleKey = keyof McpUiStyles;

/** Each standard variable, and the Gatehouse token it takes its value from. */
const TOKEN_OF: [StyleKey, string][] = [
  ["--color-background-primary", "--surface"],
  ["--color-background-secondary", "--surface-2"],
  ["--color-background-tertiary", "--bg"],
  ["--color-background-inverse", "--text"],
  ["--color-background-info", "--accent-soft"],
  ["--color-background-danger", "--danger-soft"],
  ["--color-background-success", "--success-soft"],
  ["--color-background-warning", "--warning-soft"],
  ["--color-background-disabled", "--neutral-soft"],
  ["--color-text-primary", "--text"],
  ["--color-text-secondary", "--text-muted"],
  ["--color-text-tertiary", "--text-muted"],
  ["--color-text-inverse", "--surface"],
  ["--color-text-info", "--accent"],
  ["--color-text-danger", "--danger"],
  ["--color-text-success", "--success"],
  ["--color-text-warning", "--warning"],
  ["--color-text-disabled", "--text-muted"],
  ["--color-border-primary", "--border-strong"],
  ["--color-border-secondary", "--border"],
  ["--color-border-tertiary", "--border"],
  ["--color-border-inverse", "--text"],
  ["--color-border-info", "--accent"],
  ["--color-border-danger", "--danger"],
  ["--color-border-success", "--success"],
  ["--color-border-warning", "--warning"],
  ["--color-border-disabled", "--border"],
  ["--color-ring-primary", "--focus"],
  ["--color-ring-info", "--accent"],
  ["--color-ring-danger", "--danger"],
  ["--color-ring-success", "--success"],
  ["--color-ring-warning", "--warning"],
  ["--font-sans", "--font-sans"],
  ["--font-mono", "--font-mono"],
  ["--font-text-xs-size", "--text-xs"],
  ["--font-text-sm-size", "--text-sm"],
  ["--font-text-md-size", "--text-md"],
  ["--font-text-lg-size", "--text-lg"],
  ["--font-heading-sm-size", "--text-lg"],
  ["--font-heading-md-size", "--text-xl"],
  ["--border-radius-sm", "--radius-sm"],
  ["--border-radius-md", "--radius"],
  ["--border-radius-lg", "--radius-lg"],
  ["--shadow-sm", "--shadow"],
  ["--shadow-lg", "--shadow-lg"],
];

/**
 * The standard variables for which `readToken` (a token name to its current value) has a value;
 * tokens without one are left out, so the app keeps its own default for them.
 */
export function hostStyleVariables(readToken: (token: string) => string): McpUiStyles {
  const variables: Partial<McpUiStyles> = {};
  for (const [key, token] of TOKEN_OF) {
    const value = readToken(token).trim();
    if (value !== "") variables[key] = value;
  }
  // The SDK types the map as total, but SEP-1865 lets a host pass any subset.
  return variables as McpUiStyles;
}

/** Reads a token from the document's root as the current theme sets it. */
export function documentToken(token: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(token);
}
