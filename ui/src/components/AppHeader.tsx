// Top bar of the window: app name, the page navigation, actions (the command palette's button)
// and the light/dark theme toggle.

import type { ReactNode } from "react";
import { useTheme } from "../hooks/useTheme";

type AppHeaderProps = {
  /** The page navigation, beside the brand. */
  nav?: ReactNode;
  /** Buttons before the theme toggle. */
  actions?: ReactNode;
};

export function AppHeader({ nav, actions }: AppHeaderProps) {
  const { theme, toggle } = useTheme();
  const next = theme === "dark" ? "light" : "dark";
  return (
    <header className="app-header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          G
        </span>
        <span className="brand-name">Gatehouse</span>
        <span className="brand-tagline">MCP host</span>
      </div>
      {nav}
      <div className="app-header-actions">
        {actions}
        <button type="button" className="button button-small" onClick={toggle} title={`Switch to the ${next} theme`} data-testid="theme-toggle">
          {next === "dark" ? "Dark theme" : "Light theme"}
        </button>
      </div>
    </header>
  );
}
