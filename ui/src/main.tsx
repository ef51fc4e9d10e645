// Webview entry point: applies the saved theme before first paint and mounts the app.

import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { applyTheme, initialTheme } from "./hooks/useTheme";
import "./styles/theme.css";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/servers.css";
import "./styles/detail.css";
import "./styles/toolcall.css";
import "./styles/form.css";
import "./styles/nav.css";
import "./styles/audit.css";
import "./styles/policies.css";
import "./styles/settings.css";
import "./styles/clients.css";
import "./styles/approvals.css";
import "./styles/apps.css";
import "./styles/agents.css";
import "./styles/palette.css";
import "./styles/toasts.css";
import "./styles/traffic.css";
import "./styles/offers.css";

applyTheme(initialTheme());

const root = document.getElementById("root");
if (!root) throw new Error("Gatehouse: #root element missing from index.html");

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
