// One content block of a tool result, by type: text, image, audio, a resource link, an
// embedded resource, or a block of a type Gatehouse does not know, shown as JSON. Text keeps its
// line breaks and wraps (pre-wrap). An image or audio block is shown as a data URL only when its
// MIME type is of its own kind (image/…, audio/…; the window's CSP allows `data:` media);
// otherwise it is shown as JSON.

import type { CallResultView } from "../api/gatehouse";

type Block = CallResultView["content"][number];

const IMAGE = /^image\/[\w.+-]+$/;
const AUDIO = /^audio\/[\w.+-]+$/;

function field(block: Block, key: string): string | null {
  if (typeof block !== "object" || block === null || Array.isArray(block)) return null;
  const value = block[key];
  return typeof value === "string" ? value : null;
}

function record(block: Block, key: string): Block {
  if (typeof block !== "object" || block === null || Array.isArray(block)) return null;
  return block[key] ?? null;
}

/** The size of base64 data in bytes. */
export function base64Size(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** A data URL for base64 media whose MIME type is of the expected kind; null otherwise. */
function mediaUrl(block: Block, kind: RegExp): string | null {
  const data = field(block, "data");
  const mimeType = field(block, "mimeType");
  if (data === null || mimeType === null || !kind.test(mimeType)) return null;
  return `data:${mimeType};base64,${data}`;
}

export function ContentBlock({ block }: { block: Block }) {
  const type = field(block, "type");
  const text = field(block, "text");
  if (type === "text" && text !== null) {
    return (
      <pre className="call-text" data-testid="call-text">
        {text}
      </pre>
    );
  }
  const image = type === "image" ? mediaUrl(block, IMAGE) : null;
  if (image !== null) return <img className="call-image" data-testid="call-image" src={image} alt="Image from the tool" />;
  const audio = type === "audio" ? mediaUrl(block, AUDIO) : null;
  if (audio !== null) return <audio className="call-audio" data-testid="call-audio" controls src={audio} />;
  const uri = field(block, "uri");
  if (type === "resource_link" && uri !== null) {
    return (
      <p className="call-resource" data-testid="call-resource-link">
        Resource link: <span className="mono">{uri}</span> {field(block, "name") ?? ""}
      </p>
    );
  }
  const resource = type === "resource" ? record(block, "resource") : null;
  if (resource !== null) return <EmbeddedResource resource={resource} />;
  return (
    <pre className="mono call-unknown" data-testid="call-unknown">
      {JSON.stringify(block, null, 2)}
    </pre>
  );
}

function EmbeddedResource({ resource }: { resource: Block }) {
  const text = field(resource, "text");
  const blob = field(resource, "blob");
  return (
    <div className="call-resource" data-testid="call-resource">
      <p>
        Resource: <span className="mono">{field(resource, "uri") ?? "(no URI)"}</span>
        {field(resource, "mimeType") !== null && <span className="muted"> · {field(resource, "mimeType")}</span>}
      </p>
      {text !== null ? (
        <pre className="call-text">{text}</pre>
      ) : (
        <p className="muted">Binary content, {blob !== null ? base64Size(blob) : 0} bytes.</p>
      )}
    </div>
  );
}
