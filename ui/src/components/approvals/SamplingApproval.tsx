// A server's sampling request: it asks for a model's reply. Until Gatehouse talks to models,
// the person reads the conversation (system prompt, messages, limits, any tools offered) and
// writes the reply, or declines (the server is told the user rejected it).

import { useState } from "react";
import type { Value } from "../../bindings";
import { JsonView } from "../JsonView";
import type { AnswerProps } from "./ApprovalDialog";
import { DenyWithReason, denial } from "./DenyWithReason";

type Message = { role: string; text: string | null; content: Value };

/** The request's messages, each with its text when it is a text block. */
function messagesOf(params: Value): Message[] {
  const list = (params as { messages?: unknown })?.messages;
  if (!Array.isArray(list)) return [];
  return list.map((m: unknown) => {
    const record = (typeof m === "object" && m !== null ? m : {}) as { role?: unknown; content?: unknown };
    const content = (record.content ?? null) as Value;
    const text =
      typeof content === "object" && content !== null && !Array.isArray(content) && typeof (content as { text?: unknown }).text === "string"
        ? ((content as { text: string }).text)
        : null;
    return { role: typeof record.role === "string" ? record.role : "?", text, content };
  });
}

function field(params: Value, name: string): unknown {
  return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>)[name] : undefined;
}

export function SamplingApproval({ params, answer, busy }: { params: Value } & AnswerProps) {
  const [reply, setReply] = useState("");
  const [reason, setReason] = useState("");
  const system = field(params, "systemPrompt");
  const maxTokens = field(params, "maxTokens");
  const preferences = field(params, "modelPreferences");
  const tools = field(params, "tools");
  const toolNames = Array.isArray(tools)
    ? tools.map((t: unknown) => (typeof t === "object" && t !== null && typeof (t as { name?: unknown }).name === "string" ? (t as { name: string }).name : "?"))
    : [];

  return (
    <div className="approval-body" data-testid="sampling-approval">
      {typeof system === "string" && (
        <section className="approval-system">
          <h4>System prompt</h4>
          <p className="approval-text">{system}</p>
        </section>
      )}
      <section>
        <h4>Conversation</h4>
        <ol className="approval-messages" data-testid="sampling-messages">
          {messagesOf(params).map((m, i) => (
            <li key={i} className={`approval-message approval-message-${m.role}`}>
              <span className="approval-message-role">{m.role}</span>
              {m.text !== null ? <p className="approval-text">{m.text}</p> : <JsonView value={m.content} label={`message ${i + 1}`} />}
            </li>
          ))}
        </ol>
      </section>
      <dl className="approval-limits">
        {maxTokens !== undefined && (
          <div>
            <dt>maxTokens</dt>
            <dd>{typeof maxTokens === "number" ? maxTokens : JSON.stringify(maxTokens)}</dd>
          </div>
        )}
        {toolNames.length > 0 && (
          <div>
            <dt>Tools offered</dt>
            <dd>{toolNames.join(", ")}</dd>
          </div>
        )}
      </dl>
      {preferences !== undefined && (
        <details>
          <summary>Model preferences</summary>
          <JsonView value={preferences as Value} label="Model preferences" />
        </details>
      )}
      <label className="approval-reply">
        <span>Your reply (sent as the assistant's message)</span>
        <textarea
          value={reply}
          onChange={(e) => setReply(e.target.value)}
          rows={5}
          data-testid="sampling-reply"
        />
      </label>
      <div className="approval-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy || reply.trim() === ""}
          onClick={() => void answer({ kind: "respond", text: reply })}
          data-testid="sampling-send"
        >
          Send reply
        </button>
      </div>
      <DenyWithReason reason={reason} onReason={setReason} onDeny={() => void answer(denial(reason))} busy={busy} label="Decline" />
    </div>
  );
}
