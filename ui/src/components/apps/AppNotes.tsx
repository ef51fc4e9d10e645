// What an app sent for the conversation (`ui/message`) or the model's context
// (`ui/update-model-context`). Gatehouse has no chat yet, so they are listed in the panel, newest
// last; text is shown as text, anything else as JSON. The panel keeps at most 50 (MAX_NOTES):
// older ones are counted, not kept.

import type { AppNote } from "../../apps/appRequestHandlers";

function noteText(note: AppNote): string {
  const blocks = note.params.content ?? [];
  const text = blocks.map((block) => (block.type === "text" ? block.text : JSON.stringify(block))).join("\n");
  if (note.kind === "context" && note.params.structuredContent !== undefined) {
    const structured = JSON.stringify(note.params.structuredContent, null, 2);
    return text === "" ? structured : `${text}\n${structured}`;
  }
  return text;
}

export function AppNotes({ notes, dropped }: { notes: AppNote[]; dropped: number }) {
  if (notes.length === 0) return null;
  return (
    <details className="app-notes" data-testid="app-messages" open>
      <summary>From the app ({notes.length + dropped})</summary>
      {dropped > 0 && <p className="muted">{dropped} older entries are not shown.</p>}
      <ol>
        {notes.map((note, index) => (
          <li key={index} className="app-note" data-testid="app-message" data-kind={note.kind}>
            <span className="app-note-kind">{note.kind === "message" ? "Message" : "Model context"}</span>
            <pre className="mono">{noteText(note)}</pre>
          </li>
        ))}
      </ol>
    </details>
  );
}
