// A prompt filled in (`prompts/get`), rendered as the messages it holds: each with its role and
// its content by type: text, an image inline, audio as a player (or its type and size when the
// type is not audio), an embedded resource as a resource read shows it (`ResourceContent`), a
// resource link as its URI and name, and a type Gatehouse does not know as JSON.

import type { JsonValue, PromptView, ResourceContentsView } from "../../api/gatehouse";
import { base64Size, ContentBlock } from "../ContentBlock";
import { ResourceContent } from "../resources/ResourceContent";

function str(value: JsonValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

function objectOf(value: JsonValue | undefined): Partial<Record<string, JsonValue>> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
}

/** An embedded resource's contents, when it has the shape of resource contents. */
export function embeddedResource(content: JsonValue): ResourceContentsView | null {
  const block = objectOf(content);
  if (block?.type !== "resource") return null;
  const resource = objectOf(block.resource);
  if (resource === null) return null;
  const uri = str(resource.uri);
  if (uri === null) return null;
  return { uri, mimeType: str(resource.mimeType), text: str(resource.text), blob: str(resource.blob) };
}

function MessageContent({ content }: { content: JsonValue }) {
  const resource = embeddedResource(content);
  if (resource !== null) {
    return (
      <div className="prompt-embedded" data-testid="prompt-embedded-resource">
        <p className="muted">Embedded resource</p>
        <ResourceContent content={resource} />
      </div>
    );
  }
  const block = objectOf(content);
  const mime = str(block?.mimeType);
  const data = str(block?.data);
  if (block?.type === "audio" && data !== null && !mime?.startsWith("audio/")) {
    return (
      <p className="muted" data-testid="prompt-audio-size">
        Audio{mime !== null ? ` (${mime})` : ""}, {base64Size(data)} bytes.
      </p>
    );
  }
  return <ContentBlock block={content} />;
}

export function PromptMessages({ result }: { result: PromptView }) {
  return (
    <section className="prompt-messages" aria-label="Prompt messages" data-testid="prompt-messages">
      {result.description && <p className="muted">{result.description}</p>}
      {result.messages.length === 0 && <p className="muted">The prompt has no messages.</p>}
      <ol className="prompt-message-list">
        {result.messages.map((message, index) => (
          <li key={index} className={`prompt-message prompt-role-${message.role === "assistant" ? "assistant" : "user"}`}>
            <p className="prompt-role" data-testid="prompt-role">
              {message.role || "(no role)"}
            </p>
            <MessageContent content={message.content} />
          </li>
        ))}
      </ol>
    </section>
  );
}
