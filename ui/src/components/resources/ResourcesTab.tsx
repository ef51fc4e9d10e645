// The server detail's Resources tab: its resources and resource templates (a page at a time,
// searchable by name, title, URI and description) beside what is open: a resource read (and
// subscribed to), or a template's form, whose Read opens the resource it makes beneath it.

import { useState } from "react";
import * as api from "../../api/gatehouse";
import type { ResourceItem, TemplateItem } from "../../api/gatehouse";
import { usePagedList } from "../../hooks/usePagedList";
import { matchesSearch } from "../../model/offerSearch";
import { OfferList } from "../OfferList";
import { ResourceReader } from "./ResourceReader";
import { TemplateForm } from "./TemplateForm";

type ResourcesTabProps = { serverId: string; offered: boolean; completes: boolean; connected: boolean };

type Open = { kind: "resource"; uri: string } | { kind: "template"; template: string; uri: string | null } | null;

export function ResourcesTab({ serverId, offered, completes, connected }: ResourcesTabProps) {
  const resources = usePagedList("resources", serverId, offered, api.listResourcesPage);
  const templates = usePagedList("resource-templates", serverId, offered, api.listResourceTemplatesPage);
  const [search, setSearch] = useState("");
  const [open, setOpen] = useState<Open>(null);
  if (!offered) {
    return (
      <p className="muted detail-section">
        {connected ? "This server offers no resources." : "Resources are listed once the server is connected."}
      </p>
    );
  }
  const chosenTemplate =
    open?.kind === "template" ? templates.items.find((t) => t.uriTemplate === open.template) ?? null : null;
  return (
    <div className="offers-tab" data-testid="resources-tab">
      <div className="offers-side">
        <input
          className="input"
          type="search"
          aria-label="Search resources and templates"
          placeholder="Search by name, URI or description"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <OfferList
          title="Resources"
          list={resources}
          rows={(items: ResourceItem[]) =>
            items
              .filter((r) => matchesSearch(search, [r.name, r.title, r.uri, r.description]))
              .map((r) => ({ key: r.uri, label: r.title ?? r.name, detail: r.uri, description: r.description }))
          }
          selected={open?.kind === "resource" ? open.uri : null}
          onSelect={(uri) => setOpen({ kind: "resource", uri })}
          empty={search === "" ? "No resources." : "No resource matches."}
          testId="resource-list"
        />
        <OfferList
          title="Templates"
          list={templates}
          rows={(items: TemplateItem[]) =>
            items
              .filter((t) => matchesSearch(search, [t.name, t.title, t.uriTemplate, t.description]))
              .map((t) => ({ key: t.uriTemplate, label: t.title ?? t.name, detail: t.uriTemplate, description: t.description }))
          }
          selected={open?.kind === "template" ? open.template : null}
          onSelect={(template) => setOpen({ kind: "template", template, uri: null })}
          empty={search === "" ? "No templates." : "No template matches."}
          testId="template-list"
        />
      </div>
      <div className="offers-main">
        {open === null && <p className="muted">Choose a resource to read it, or a template to fill it in.</p>}
        {open?.kind === "resource" && <ResourceReader key={open.uri} serverId={serverId} uri={open.uri} />}
        {chosenTemplate !== null && (
          <TemplateForm
            key={chosenTemplate.uriTemplate}
            serverId={serverId}
            template={chosenTemplate}
            completes={completes}
            onRead={(uri) => setOpen({ kind: "template", template: chosenTemplate.uriTemplate, uri })}
          />
        )}
        {open?.kind === "template" && open.uri !== null && (
          <ResourceReader key={open.uri} serverId={serverId} uri={open.uri} />
        )}
      </div>
    </div>
  );
}
