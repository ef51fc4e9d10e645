// A JSON value, pretty-printed in a scrollable monospace block.

import type { Value } from "../bindings";

type JsonViewProps = {
  value: Value | undefined;
  testId?: string;
  label?: string;
};

export function JsonView({ value, testId, label }: JsonViewProps) {
  const text = value === undefined ? "—" : JSON.stringify(value, null, 2);
  return (
    <pre className="json-view" data-testid={testId} aria-label={label} tabIndex={0}>
      {text}
    </pre>
  );
}
