// The server detail's Prompts tab: its prompts (a page at a time, searchable by name, title and
// description) beside the chosen prompt's argument form and, once got, its messages.

import { useState } from "react";
import * as api from "../../api/gatehouse";
import type { PromptItem } from "../../api/gatehouse";
import { usePagedList } from "../../hooks/usePagedList";
import { matchesSearch } from "../../model/offerSearch";
import { OfferList } from "../OfferList";
import { PromptForm } from "./PromptForm";

type PromptsTabProps = { serverId: string; offered: boolean; completes: boolean; connected: boolean };

export function PromptsTab({ serverId, offered, completes, connected }: PromptsTabProps) {
  const prompts = usePagedList("prompts", serverId, offered, api.listPromptsPage);
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState<string | null>(null);
  if (!offered) {
    return (
      <p className="muted detail-section">
        {connected ? "This server offers no prompts." : "Prompts are listed once the server is connected."}
      </p>
    );
  }
  const prompt = prompts.items.find((p) => p.name === chosen) ?? null;
  return (
    <div className="offers-tab" data-testid="prompts-tab">
      <div className="offers-side">
        <input
          className="input"
          type="search"
          aria-label="Search prompts"
          placeholder="Search by name or description"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <OfferList
          title="Prompts"
          list={prompts}
          rows={(items: PromptItem[]) =>
            items
              .filter((p) => matchesSearch(search, [p.name, p.title, p.description]))
              .map((p) => ({
                key: p.name,
                label: p.title ?? p.name,
                detail: p.title !== null ? p.name : null,
                description: p.description,
              }))
          }
          selected={chosen}
          onSelect={setChosen}
          empty={search === "" ? "No prompts." : "No prompt matches."}
          testId="prompt-list"
        />
      </div>
      <div className="offers-main">
        {prompt === null ? (
          <p className="muted">Choose a prompt to fill in its arguments.</p>
        ) : (
          <PromptForm key={prompt.name} serverId={serverId} prompt={prompt} completes={completes} />
        )}
      </div>
    </div>
  );
}
