// The policy's rules, most specific layer first: what each applies to (server, tool, source and,
// for the gateway, the client), its condition and decision, a stale rule marked with why, and
// edit, renew and delete.

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { RuleView } from "../../api/gatehouse";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { describeArgument, ruleLayer, staleReason } from "../../model/describeRule";
import { Dialog } from "../Dialog";
import { ErrorBanner } from "../ErrorBanner";
import { useRefreshPolicy } from "./policyQueries";

type RuleListProps = {
  rules: RuleView[];
  onEdit: (rule: RuleView) => void;
  /** Shows the definitions a stale rule's tool changed between. */
  onShowChange: (rule: RuleView) => void;
};

const LAYER_ORDER = { argument: 0, tool: 1, server: 2, global: 3 } as const;

export function RuleList({ rules, onEdit, onShowChange }: RuleListProps) {
  const refresh = useRefreshPolicy();
  const [deleting, setDeleting] = useState<RuleView | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => api.policyRemoveRule(id),
    onSuccess: () => setDeleting(null),
    onSettled: refresh,
  });
  // Renewing: the same rule made again for the tool's current definition, then the old one removed.
  const renew = useMutation({
    mutationFn: async (rule: RuleView) => {
      await api.policyAddRule({
        server: rule.serverId,
        tool: rule.tool,
        argument: rule.argument,
        decision: rule.decision,
        source: rule.source,
        client: rule.client,
      });
      await api.policyRemoveRule(rule.id);
    },
    onSettled: refresh,
  });
  const sorted = [...rules].sort((a, b) => LAYER_ORDER[ruleLayer(a)] - LAYER_ORDER[ruleLayer(b)] || a.id.localeCompare(b.id));

  return (
    <>
      {renew.isError && <ErrorBanner message={`Could not renew the rule: ${errorMessage(renew.error)}`} onDismiss={() => renew.reset()} />}
      <table className="policy-table" aria-label="Rules">
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">Tool</th>
            <th scope="col">From</th>
            <th scope="col">When</th>
            <th scope="col">Decision</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((rule) => {
            const reason = staleReason(rule);
            return (
              <tr key={rule.id} data-testid="rule-row" data-rule-id={rule.id} className={reason === null ? undefined : "rule-stale"}>
                <td>{rule.server ?? <span className="muted">every server</span>}</td>
                <td className="mono">{rule.tool ?? <span className="muted">every tool</span>}</td>
                <td data-testid="rule-source">
                  {rule.source ?? <span className="muted">every source</span>}
                  {rule.client !== null && (
                    <div className="mono" data-testid="rule-client">
                      client {rule.client}
                    </div>
                  )}
                </td>
                <td className="mono">{rule.argument === null ? <span className="muted">always</span> : describeArgument(rule.argument)}</td>
                <td>
                  <span className={`pill pill-${rule.decision}`}>{rule.decision}</span>
                  {reason !== null && (
                    <div className="stale-note" data-testid="stale-note">
                      <span className="pill pill-stale">stale</span> {reason}
                      <button type="button" className="link-button" onClick={() => onShowChange(rule)}>
                        Show what changed
                      </button>
                    </div>
                  )}
                </td>
                <td className="row-actions">
                  {reason !== null && (
                    <button type="button" className="button button-small" onClick={() => renew.mutate(rule)} disabled={renew.isPending}>
                      Renew
                    </button>
                  )}
                  <button type="button" className="button button-small" onClick={() => onEdit(rule)} aria-label={`Edit rule ${rule.id}`}>
                    Edit
                  </button>
                  <button type="button" className="button button-small button-danger-quiet" onClick={() => setDeleting(rule)} aria-label={`Delete rule ${rule.id}`}>
                    Delete
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {deleting !== null && (
        <Dialog title="Delete this rule?" role="alertdialog" describedBy="delete-rule-text" onClose={() => setDeleting(null)} testId="delete-rule-dialog">
          <p id="delete-rule-text" className="dialog-message">
            {deleting.decision} for {deleting.server ?? "every server"}
            {deleting.tool !== null && <> · {deleting.tool}</>}
            {deleting.source !== null && <> · from {deleting.source}</>}
            {deleting.client !== null && <> · client {deleting.client}</>}
            {deleting.argument !== null && <> · {describeArgument(deleting.argument)}</>}. Requests it decided fall to the next
            rule.
          </p>
          {remove.isError && (
            <p className="form-error" role="alert">
              {errorMessage(remove.error)}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setDeleting(null)}>
              Cancel
            </button>
            <button type="button" className="button button-danger" onClick={() => remove.mutate(deleting.id)} disabled={remove.isPending} data-testid="confirm-delete-rule">
              {remove.isPending ? "Deleting…" : "Delete rule"}
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
