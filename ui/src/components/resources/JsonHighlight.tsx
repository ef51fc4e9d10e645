// JSON text pretty-printed and highlighted (keys, strings, numbers, literals) with spans from
// `jsonTokens`: no HTML is made from the text, so what a server sent cannot inject any.

import { jsonTokens } from "../../model/jsonTokens";

export function JsonHighlight({ json, label }: { json: string; label: string }) {
  return (
    <pre className="json-view json-highlight" data-testid="resource-json" aria-label={label} tabIndex={0}>
      {jsonTokens(json).map((token, index) =>
        token.kind === "plain" ? (
          token.text
        ) : (
          <span key={index} className={`json-${token.kind}`}>
            {token.text}
          </span>
        ),
      )}
    </pre>
  );
}
