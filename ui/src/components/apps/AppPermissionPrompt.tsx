// Asks the person, once per view and before it loads, which of the browser permissions its
// resource declares it may have. Nothing is ticked to start with; only ticked ones are passed on.

import { useState } from "react";
import type { AppPermissions } from "../../api/gatehouse";
import { agreedPermissions, declaredPermissions, PERMISSION_LABELS } from "../../model/appPermissions";
import type { PermissionName } from "../../model/appPermissions";

type AppPermissionPromptProps = { declared: AppPermissions; onAnswer: (agreed: AppPermissions) => void };

export function AppPermissionPrompt({ declared, onAnswer }: AppPermissionPromptProps) {
  const [ticked, setTicked] = useState<ReadonlySet<PermissionName>>(new Set());
  const asked = declaredPermissions(declared);
  const labels = new Map(PERMISSION_LABELS);
  const toggle = (name: PermissionName, on: boolean) =>
    setTicked((current) => {
      const next = new Set(current);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  return (
    <div className="app-permissions" role="group" aria-label="Permissions the app asks for" data-testid="app-permissions">
      <p>This app asks to:</p>
      <ul>
        {asked.map((name) => (
          <li key={name}>
            <label>
              <input
                type="checkbox"
                checked={ticked.has(name)}
                onChange={(e) => toggle(name, e.target.checked)}
                data-testid={`app-permission-${name}`}
              />{" "}
              {labels.get(name)}
            </label>
          </li>
        ))}
      </ul>
      <div className="app-permissions-actions">
        <button
          type="button"
          className="button button-primary button-small"
          onClick={() => onAnswer(agreedPermissions(declared, ticked))}
          data-testid="app-permissions-continue"
        >
          Show the app
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => onAnswer(agreedPermissions(declared, new Set()))}
          data-testid="app-permissions-none"
        >
          Show it without these
        </button>
      </div>
    </div>
  );
}
