// About: the app's version and the licences of the libraries it bundles (the list
// scripts/licences.py writes from Cargo's metadata and the UI's package-lock), searchable.

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import * as api from "../../api/gatehouse";
import { errorMessage } from "../../api/GatehouseError";
import { ErrorBanner } from "../ErrorBanner";

export function AboutSection() {
  const about = useQuery({ queryKey: ["settings", "about"], queryFn: () => api.about() });
  const [filter, setFilter] = useState("");
  if (about.error !== null) return <ErrorBanner message={`Could not read the app's version: ${errorMessage(about.error)}`} />;
  if (about.data === undefined) return <p className="muted">Reading the version…</p>;
  const needle = filter.trim().toLowerCase();
  const shown = about.data.licences.filter(
    (l) => needle === "" || l.name.toLowerCase().includes(needle) || l.licence.toLowerCase().includes(needle),
  );
  return (
    <div className="about" data-testid="about">
      <p>
        Gatehouse <span data-testid="about-version">{about.data.version}</span>
      </p>
      <details>
        <summary>Licences of the {about.data.licences.length} bundled libraries</summary>
        <label className="visually-hidden" htmlFor="licence-filter">
          Find a library
        </label>
        <input
          id="licence-filter"
          className="input"
          placeholder="Find a library or licence"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <table className="licences">
          <thead>
            <tr>
              <th scope="col">Library</th>
              <th scope="col">Version</th>
              <th scope="col">Licence</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((l) => (
              <tr key={`${l.kind}:${l.name}:${l.version}`} data-testid="licence-row">
                <td>
                  {l.name} <span className="muted">({l.kind})</span>
                </td>
                <td>{l.version}</td>
                <td>{l.licence}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
