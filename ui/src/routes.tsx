// The window's pages: one entry per page, in navigation order. The first is the start page.
// The pages are Servers, Approvals, Audit, Policies, Clients and Settings; all but the first two
// are loaded the first time they are visited.

import { lazy, Suspense } from "react";
import type { ReactNode } from "react";
import { ApprovalsPage } from "./components/approvals/ApprovalsPage";
import { ServersPage } from "./components/ServersPage";

// The Audit, Policies and Clients pages (and their table, virtualisation and menu libraries) load when
// first opened, so the start page does not wait for them.
const AuditPage = lazy(() => import("./components/audit/AuditPage").then((m) => ({ default: m.AuditPage })));
const PoliciesPage = lazy(() => import("./components/policies/PoliciesPage").then((m) => ({ default: m.PoliciesPage })));
const SettingsPage = lazy(() => import("./components/settings/SettingsPage").then((m) => ({ default: m.SettingsPage })));
const ClientsPage = lazy(() => import("./components/clients/ClientsPage").then((m) => ({ default: m.ClientsPage })));

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<p className="muted page-loading">Loading…</p>}>{children}</Suspense>;
}

export type PageRoute = {
  path: string;
  label: string;
  element: ReactNode;
};

export const ROUTES: readonly PageRoute[] = [
  { path: "/servers", label: "Servers", element: <ServersPage /> },
  { path: "/approvals", label: "Approvals", element: <ApprovalsPage /> },
  { path: "/audit", label: "Audit", element: <Loading><AuditPage /></Loading> },
  { path: "/policies", label: "Policies", element: <Loading><PoliciesPage /></Loading> },
  { path: "/clients", label: "Clients", element: <Loading><ClientsPage /></Loading> },
  { path: "/settings", label: "Settings", element: <Loading><SettingsPage /></Loading> },
];
