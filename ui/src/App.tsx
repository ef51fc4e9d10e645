// Root component: the query client, the hash router (the webview has no server to answer
// paths), the header with the page navigation (and the count of waiting requests) and the
// command palette's button, the palette's shortcut (registered here, once), the approval dialog
// over every page, the current page, and the toasts.

import { QueryClientProvider } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { HashRouter, Navigate, Route, Routes } from "react-router";
import { AppHeader } from "./components/AppHeader";
import { AppNav } from "./components/AppNav";
import { ApprovalPrompt } from "./components/approvals/ApprovalPrompt";
import { ApprovalPromptProvider } from "./components/approvals/ApprovalPromptContext";
import { CommandPalette } from "./components/palette/CommandPalette";
import { Toasts } from "./components/Toasts";
import { PaletteButton } from "./components/palette/PaletteButton";
import { usePaletteShortcut } from "./components/palette/usePaletteShortcut";
import { useApprovals } from "./hooks/useApprovals";
import { makeQueryClient } from "./queryClient";
import { ROUTES } from "./routes";

export function App() {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <HashRouter>
        <AppFrame />
      </HashRouter>
    </QueryClientProvider>
  );
}

/** The header, the routed page and the approval dialog, inside the router and the query client. */
export function AppFrame() {
  const start = ROUTES[0]?.path ?? "/servers";
  const pending = useApprovals().data?.length ?? 0;
  const [paletteOpen, setPaletteOpen] = useState(false);
  usePaletteShortcut(useCallback(() => setPaletteOpen((open) => !open), []));
  return (
    <ApprovalPromptProvider>
    <div className="app">
      <AppHeader
        nav={<AppNav badges={{ "/approvals": pending }} />}
        actions={<PaletteButton onOpen={() => setPaletteOpen(true)} />}
      />
      <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} />
      <ApprovalPrompt />
      <main className="app-main">
        <Routes>
          {ROUTES.map((route) => (
            <Route key={route.path} path={route.path} element={route.element} />
          ))}
          <Route path="*" element={<Navigate to={start} replace />} />
        </Routes>
      </main>
      <Toasts />
    </div>
    </ApprovalPromptProvider>
  );
}
