// The default profile: what an agent Gatehouse does not know is served, and what every client's
// own settings lie over. Its settings can be handed back to Gatehouse's own.

import { errorMessage } from "../../api/GatehouseError";
import { useServers } from "../../hooks/useServers";
import { ErrorBanner } from "../ErrorBanner";
import { ClientProfileEditor } from "./ClientProfileEditor";
import { useDefaultProfile } from "./clientQueries";

export function DefaultProfileDetail({ onClose }: { onClose: () => void }) {
  const profile = useDefaultProfile();
  const { servers } = useServers();

  let content;
  if (profile.isPending) {
    content = <p className="muted page-loading">Loading the default profile…</p>;
  } else if (profile.error !== null) {
    content = (
      <ErrorBanner message={`Could not read the default profile: ${errorMessage(profile.error)}`} onRetry={() => void profile.refetch()} />
    );
  } else {
    content = <ClientProfileEditor name={null} profile={profile.data} servers={servers} />;
  }

  return (
    <section className="client-detail" aria-labelledby="default-profile-heading" data-testid="default-profile">
      <div className="section-toolbar">
        <h2 id="default-profile-heading">Default profile</h2>
        <button type="button" className="button button-small" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="muted">
        An agent Gatehouse does not know is served this profile; a client&apos;s own settings lie over it, and what a client does not
        set itself follows it.
      </p>
      {content}
    </section>
  );
}
