// Root component: the query client, the hash router (the webview has no server to answer
// paths), the header with the page navigation, and the current page.

import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { HashRouter, Navigate, Route, Routes } from "react-router";
import { AppHeader } from "./components/AppHeader";
import { AppNav } from "./components/AppNav";
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

/** The header and the routed page, inside the router and the query client. */
export function AppFrame() {
  const start = ROUTES[0]?.path ?? "/servers";
  return (
    <div className="app">
      <AppHeader nav={<AppNav />} />
      <main className="app-main">
        <Routes>
          {ROUTES.map((route) => (
            <Route key={route.path} path={route.path} element={route.element} />
          ))}
          <Route path="*" element={<Navigate to={start} replace />} />
        </Routes>
      </main>
    </div>
  );
}
