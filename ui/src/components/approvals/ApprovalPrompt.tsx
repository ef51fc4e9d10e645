// Puts the waiting requests before the person, one at a time, over whatever page is open: the
// one chosen on the Approvals page, else the oldest not set aside. The list comes from the
// engine, so after a reload the same request is asked again.

import type { PendingApproval } from "../../api/gatehouse";
import { useApprovals } from "../../hooks/useApprovals";
import { ApprovalDialog } from "./ApprovalDialog";
import { useApprovalPrompt } from "./ApprovalPromptContext";

export function ApprovalPrompt() {
  const { data: pending = [] } = useApprovals();
  const { later, chosen, setAside } = useApprovalPrompt();
  const current: PendingApproval | undefined =
    pending.find((p) => p.id === chosen) ?? pending.find((p) => !later.has(p.id));
  if (current === undefined) return null;
  // Keyed by id: a new request starts with a fresh form.
  return <ApprovalDialog key={current.id} pending={current} onLater={() => setAside(current.id)} />;
}
