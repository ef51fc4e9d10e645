// One of a resource's contents (read, or embedded in a prompt message), by what it holds: text,
// with JSON (by MIME type, or text that parses as JSON under a JSON type) pretty-printed and
// highlighted; an image blob (PNG, JPEG, GIF, WebP, SVG) shown inline from its base64 through an
// <img> (an SVG in an <img> runs no script); any other blob as its type and size with a Save
// button, which writes it into the Downloads folder.

import { useState } from "react";
import * as api from "../../api/gatehouse";
import type { ResourceContentsView } from "../../api/gatehouse";
import { offerErrorText } from "../../model/offerErrors";
import { isJsonMime, prettyJson } from "../../model/jsonTokens";
import { base64Size } from "../ContentBlock";
import { JsonHighlight } from "./JsonHighlight";

const INLINE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"]);

/** The MIME type without its parameters, in lower case; null when none was given. */
function baseMime(mimeType: string | null): string | null {
  return mimeType === null ? null : (mimeType.split(";")[0]?.trim().toLowerCase() ?? null);
}

function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function ResourceContent({ content }: { content: ResourceContentsView }) {
  const mime = baseMime(content.mimeType);
  return (
    <div className="resource-content" data-testid="resource-content">
      <p className="resource-content-meta muted">
        <span className="mono">{content.uri}</span>
        {mime !== null && <span> · {mime}</span>}
      </p>
      <Body content={content} mime={mime} />
    </div>
  );
}

function Body({ content, mime }: { content: ResourceContentsView; mime: string | null }) {
  if (content.text !== null) {
    const pretty = isJsonMime(mime) ? prettyJson(content.text) : null;
    if (pretty !== null) return <JsonHighlight json={pretty} label={`JSON of ${content.uri}`} />;
    return (
      <pre className="call-text resource-text" data-testid="resource-text" tabIndex={0} aria-label={`Text of ${content.uri}`}>
        {content.text}
      </pre>
    );
  }
  if (content.blob !== null) {
    if (mime !== null && INLINE_IMAGES.has(mime)) {
      return (
        <img
          className="call-image resource-image"
          data-testid="resource-image"
          src={`data:${mime};base64,${content.blob}`}
          alt={`Image ${content.uri}`}
        />
      );
    }
    return <BlobSummary content={content} mime={mime} />;
  }
  return <p className="muted">The server sent neither text nor a blob.</p>;
}

function BlobSummary({ content, mime }: { content: ResourceContentsView; mime: string | null }) {
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const size = base64Size(content.blob ?? "");
  const save = () => {
    setError(null);
    api.saveResourceContents(content).then(setSaved, (e: unknown) => setError(offerErrorText(e)));
  };
  return (
    <div className="resource-blob" data-testid="resource-blob">
      <p>
        Binary content{mime !== null ? ` (${mime})` : ""}, {describeSize(size)}.
      </p>
      <button type="button" className="button button-small" onClick={save} aria-label={`Save ${content.uri} to Downloads`}>
        Save
      </button>
      {saved !== null && (
        <p className="muted" role="status">
          Saved to <span className="mono">{saved}</span>
        </p>
      )}
      {error !== null && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
