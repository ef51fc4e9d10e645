// A tool's result: its content blocks, its structured content (collapsible, with the schema
// problem if it does not match the tool's output schema), a tool error (`isError`) marked as such
// with an alert, or that the call was cancelled. Server text is only ever rendered as text,
// never as HTML.

import type { CallResultView } from "../api/gatehouse";
import { ContentBlock } from "./ContentBlock";

export function CallResult({ result }: { result: CallResultView }) {
  if (result.cancelled) {
    return (
      <p className="muted" data-testid="call-cancelled">
        The call was cancelled.
      </p>
    );
  }
  return (
    <div className="call-result" data-testid="call-result">
      {result.isError && (
        <p className="form-error" role="alert" data-testid="call-tool-error">
          The tool reported an error.
        </p>
      )}
      {result.content.length === 0 && result.structuredContent === null && (
        <p className="muted">The tool returned nothing.</p>
      )}
      {result.content.map((block, index) => (
        <ContentBlock key={index} block={block} />
      ))}
      {result.structuredContent !== null && (
        <details className="call-structured" data-testid="call-structured">
          <summary>Structured content</summary>
          {result.schemaProblem !== null && (
            <p className="form-error" data-testid="call-schema-problem">
              It does not match the tool&apos;s output schema: {result.schemaProblem}
            </p>
          )}
          <pre className="mono">{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}
