// The Policies page's "App sites" section: the global lists of outside sites MCP App views may
// reach. A blocked domain (and its subdomains) is taken out of every view's policy whatever the
// view declares; once the allow list has an entry, views reach only the declared sites it
// covers. The person adds a domain to *Block* or *Allow* and removes any listed one. The engine
// applies them when a view opens and records each change.

import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { FormEvent } from "react";
import type { AppSites as AppSiteLists, SiteList } from "../../api/gatehouse";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { ErrorBanner } from "../ErrorBanner";
import { policyKeys, useRefreshPolicy } from "./policyQueries";

const LISTS: readonly (readonly [SiteList, string])[] = [
  ["block", "Block"],
  ["allow", "Allow"],
];

export function AppSites() {
  const ids = { domain: useId(), list: useId() };
  const sites = useQuery({ queryKey: policyKeys.appSites, queryFn: api.appSites });
  const refresh = useRefreshPolicy();
  const [domain, setDomain] = useState("");
  const [list, setList] = useState<SiteList>("block");
  const add = useMutation({
    mutationFn: (input: { list: SiteList; domain: string }) => api.appSiteAdd(input.list, input.domain),
    onSuccess: () => setDomain(""),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: (d: string) => api.appSiteRemove(d), onSettled: refresh });
  const error = add.error ?? remove.error;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (domain.trim() === "") return;
    remove.reset();
    add.mutate({ list, domain: domain.trim() });
  };

  return (
    <div className="app-sites">
      <p className="muted policy-note">
        Outside sites the apps of your servers may reach, on top of what each app declares. A blocked domain and its subdomains
        are never reached; once the allow list has an entry, apps reach only the declared sites it covers. Each applies from the
        next app you open.
      </p>
      {error !== null && (
        <ErrorBanner
          message={`Could not change the app sites: ${errorMessage(error)}`}
          onDismiss={() => {
            add.reset();
            remove.reset();
          }}
        />
      )}
      <form className="app-sites-form" onSubmit={submit} aria-label="Add an app site">
        <label htmlFor={ids.domain}>Domain</label>
        <input
          id={ids.domain}
          className="input"
          value={domain}
          placeholder="example.com"
          onChange={(e) => setDomain(e.target.value)}
          data-testid="app-site-domain"
        />
        <label htmlFor={ids.list}>List</label>
        <select
          id={ids.list}
          className="input"
          value={list}
          onChange={(e) => setList(e.target.value as SiteList)}
          data-testid="app-site-list"
        >
          {LISTS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <button type="submit" className="button" disabled={add.isPending || domain.trim() === ""} data-testid="app-site-add">
          Add
        </button>
      </form>
      <SiteTable sites={sites.data} failed={sites.error} busy={remove.isPending} onRemove={(d) => remove.mutate(d)} />
    </div>
  );
}

type SiteTableProps = {
  sites: AppSiteLists | undefined;
  failed: Error | null;
  busy: boolean;
  onRemove: (domain: string) => void;
};

function SiteTable({ sites, failed, busy, onRemove }: SiteTableProps) {
  if (failed !== null) return <p role="alert">Could not read the app sites: {errorMessage(failed)}</p>;
  if (sites === undefined) return <p className="muted">Loading…</p>;
  const rows = [...sites.block.map((d) => [d, "block"] as const), ...sites.allow.map((d) => [d, "allow"] as const)];
  if (rows.length === 0) {
    return (
      <p className="muted" data-testid="app-sites-empty">
        No lists: apps may reach the sites they declare (you are told which when one opens).
      </p>
    );
  }
  return (
    <table className="policy-table" aria-label="App sites">
      <thead>
        <tr>
          <th scope="col">Domain</th>
          <th scope="col">List</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([domain, list]) => (
          <tr key={domain} data-testid="app-site" data-domain={domain} data-list={list}>
            <th scope="row">
              <code>{domain}</code>
            </th>
            <td>
              <span className={`pill pill-${list === "block" ? "deny" : "allow"}`}>{list}</span>
            </td>
            <td>
              <button
                type="button"
                className="button button-small"
                disabled={busy}
                aria-label={`Remove ${domain}`}
                onClick={() => onRemove(domain)}
              >
                Remove
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
