// The window's pages: one entry per page, in navigation order. The first is the start page.

import type { ReactNode } from "react";
import { ApprovalsPage } from "./components/approvals/ApprovalsPage";
import { AuditPage } from "./components/audit/AuditPage";
import { PoliciesPage } from "./components/policies/PoliciesPage";
import { ServersPage } from "./components/ServersPage";

export type PageRoute = {
  path: string;
  label: string;
  element: ReactNode;
};

export const ROUTES: readonly PageRoute[] = [
  { path: "/servers", label: "Servers", element: <ServersPage /> },
  { path: "/approvals", label: "Approvals", element: <ApprovalsPage /> },
  { path: "/audit", label: "Audit", element: <AuditPage /> },
  { path: "/policies", label: "Policies", element: <PoliciesPage /> },
];
