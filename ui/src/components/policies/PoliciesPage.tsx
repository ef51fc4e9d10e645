// The Policies page: each server's default and read-only trust, the rules (add, edit, delete,
// stale ones marked with why), the outside sites apps may reach, and each tool's definition
// history with a diff.

import { useState } from "react";
import type { RuleView } from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { AppSites } from "./AppSites";
import { DefinitionHistory } from "./DefinitionHistory";
import type { HistoryFocus } from "./DefinitionHistory";
import { usePolicyRules, usePolicyServers } from "./policyQueries";
import { RuleDialog } from "./RuleDialog";
import { RuleList } from "./RuleList";
import { ServerPolicies } from "./ServerPolicies";

type RuleDialogState = { editing: RuleView | null } | null;

export function PoliciesPage() {
  const servers = usePolicyServers();
  const rules = usePolicyRules();
  const [dialog, setDialog] = useState<RuleDialogState>(null);
  const [focus, setFocus] = useState<HistoryFocus>({ serverId: "", tool: "", hashes: [] });

  const showChange = (rule: RuleView) => {
    if (rule.serverId === null || rule.tool === null) return;
    const hashes = [rule.definitionHash, rule.currentDefinitionHash].filter((h): h is string => h !== null);
    setFocus({ serverId: rule.serverId, tool: rule.tool, hashes });
    // (jsdom has no scrollIntoView.)
    document.getElementById("definitions-heading")?.scrollIntoView?.({ behavior: "smooth", block: "start" });
  };

  const failed = servers.error ?? rules.error;
  let content;
  if (servers.isPending || rules.isPending) {
    content = <p className="muted page-loading">Loading the policy…</p>;
  } else if (failed !== null || servers.data === undefined || rules.data === undefined) {
    content = (
      <div className="empty-state" role="alert">
        <h2>Could not read the policy</h2>
        <p>{errorMessage(failed)}</p>
        <button
          type="button"
          className="button"
          onClick={() => {
            void servers.refetch();
            void rules.refetch();
          }}
        >
          Try again
        </button>
      </div>
    );
  } else {
    const staleCount = rules.data.filter((r) => r.stale).length;
    content = (
      <>
        <section className="policy-section" aria-labelledby="server-defaults-heading">
          <h2 id="server-defaults-heading">Servers</h2>
          {servers.data.length === 0 ? (
            <p className="muted">No servers yet. Add one on the Servers page to set its default.</p>
          ) : (
            <ServerPolicies servers={servers.data} rules={rules.data} />
          )}
        </section>
        <section className="policy-section" aria-labelledby="rules-heading">
          <div className="section-toolbar">
            <h2 id="rules-heading">
              Rules{rules.data.length > 0 && <span className="count">{rules.data.length}</span>}
              {staleCount > 0 && (
                <span className="pill pill-stale" data-testid="stale-count">
                  {staleCount} stale
                </span>
              )}
            </h2>
            <button type="button" className="button button-primary" onClick={() => setDialog({ editing: null })} data-testid="add-rule">
              Add rule
            </button>
          </div>
          <p className="muted policy-note">
            Most specific first: argument rules, then rules for a tool, then the server&apos;s default, then the global default
            (ask when none is set). A call you start by hand is allowed unless a rule denies it.
          </p>
          {rules.data.length === 0 ? (
            <div className="empty-state empty-state-compact" data-testid="rules-empty">
              <h3>No rules</h3>
              <p>Requests from servers are asked about; your own calls are allowed. Add a rule to allow or deny without asking.</p>
            </div>
          ) : (
            <RuleList rules={rules.data} onEdit={(rule) => setDialog({ editing: rule })} onShowChange={showChange} />
          )}
        </section>
        <section className="policy-section" aria-labelledby="app-sites-heading">
          <h2 id="app-sites-heading">App sites</h2>
          <AppSites />
        </section>
        <section className="policy-section" aria-labelledby="definitions-heading">
          <h2 id="definitions-heading">Tool definitions</h2>
          <p className="muted policy-note">
            Every definition a server has shown of each tool is kept. A rule that allows a tool is made for one definition; when
            the server changes the tool, the rule is stale.
          </p>
          <DefinitionHistory servers={servers.data} focus={focus} onFocus={setFocus} />
        </section>
      </>
    );
  }

  return (
    <section className="policies-page" aria-labelledby="policies-heading">
      <div className="page-toolbar">
        <h1 id="policies-heading">Policies</h1>
      </div>
      {content}
      {dialog !== null && servers.data !== undefined && (
        <RuleDialog servers={servers.data} editing={dialog.editing} onClose={() => setDialog(null)} />
      )}
    </section>
  );
}
