// Top bar of the window: app name and the light/dark theme toggle.

import { useTheme } from "../hooks/useTheme";

export function AppHeader() {
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
      <button type="button" className="button button-small" onClick={toggle} title={`Switch to the ${next} theme`} data-testid="theme-toggle">
        {next === "dark" ? "Dark theme" : "Light theme"}
      </button>
    </header>
  );
}
