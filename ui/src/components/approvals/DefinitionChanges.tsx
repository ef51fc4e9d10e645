// What changed in a tool since a rule allowed it: each changed field, before and after.

import type { DefinitionChange } from "../../api/gatehouse";
import { JsonView } from "../JsonView";

export function DefinitionChanges({ changes }: { changes: DefinitionChange[] }) {
  return (
    <section className="approval-changes" data-testid="definition-changes">
      <h4>This tool changed since you allowed it</h4>
      {changes.map((change) => (
        <div key={change.field} className="approval-change">
          <p className="approval-change-field">
            <code>{change.field}</code>
          </p>
          <div className="approval-change-sides">
            <div>
              <span className="muted">Before</span>
              <JsonView value={change.before} label={`${change.field} before`} />
            </div>
            <div>
              <span className="muted">Now</span>
              <JsonView value={change.after} label={`${change.field} now`} />
            </div>
          </div>
        </div>
      ))}
    </section>
  );
}
