// A resource read through the gate and shown (`ResourceContent` for each of its contents), with
// Read again and Subscribe: while subscribed, each update the server sends (coalesced by the
// engine) reads it again and shows the time of the last update. Leaving the resource (or the
// tab) unsubscribes.

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import * as api from "../../api/gatehouse";
import { offerErrorText } from "../../model/offerErrors";
import { ErrorBanner } from "../ErrorBanner";
import { ResourceContent } from "./ResourceContent";

type ResourceReaderProps = { serverId: string; uri: string };

export function ResourceReader({ serverId, uri }: ResourceReaderProps) {
  const read = useQuery({
    queryKey: ["resource", serverId, uri],
    queryFn: () => api.readResource(serverId, uri),
    retry: false,
    staleTime: Infinity,
  });
  const subscription = useSubscription(serverId, uri, () => void read.refetch());
  return (
    <section className="detail-section resource-reader" aria-labelledby="resource-reader-heading" data-testid="resource-reader">
      <header className="resource-reader-header">
        <h3 id="resource-reader-heading" className="mono">
          {uri}
        </h3>
        <div className="resource-reader-actions">
          <button type="button" className="button button-small" onClick={() => void read.refetch()} disabled={read.isFetching}>
            {read.isFetching ? "Reading…" : "Read again"}
          </button>
          {subscription.subscribed ? (
            <button type="button" className="button button-small" onClick={subscription.unsubscribe} data-testid="resource-unsubscribe">
              Unsubscribe
            </button>
          ) : (
            <button
              type="button"
              className="button button-small"
              onClick={subscription.subscribe}
              disabled={subscription.busy}
              data-testid="resource-subscribe"
            >
              Subscribe
            </button>
          )}
        </div>
      </header>
      {subscription.subscribed && (
        <p className="muted" role="status" data-testid="resource-updated">
          {subscription.lastUpdate === null
            ? "Subscribed: waiting for the server's first update."
            : `Updated at ${subscription.lastUpdate.toLocaleTimeString()} (${subscription.updates} ${subscription.updates === 1 ? "update" : "updates"})`}
        </p>
      )}
      {subscription.error !== null && <ErrorBanner message={subscription.error} />}
      {read.error !== null && <ErrorBanner message={offerErrorText(read.error)} onRetry={() => void read.refetch()} />}
      {read.isPending && <p className="muted">Reading…</p>}
      {read.data?.length === 0 && <p className="muted">The resource is empty.</p>}
      {read.data?.map((content, index) => <ResourceContent key={`${content.uri}-${index}`} content={content} />)}
    </section>
  );
}

type Subscription = {
  subscribed: boolean;
  busy: boolean;
  lastUpdate: Date | null;
  updates: number;
  error: string | null;
  subscribe: () => void;
  unsubscribe: () => void;
};

/** The window's subscription to one resource, ended when the resource or the view goes. */
function useSubscription(serverId: string, uri: string, onUpdate: () => void): Subscription {
  const [subscribed, setSubscribed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [lastUpdate, setLastUpdate] = useState<Date | null>(null);
  const [updates, setUpdates] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(onUpdate);
  useEffect(() => {
    latest.current = onUpdate;
  });
  // Whether this view holds a subscription, for the cleanup below.
  const holding = useRef(false);
  useEffect(
    () => () => {
      if (holding.current) {
        holding.current = false;
        void api.unsubscribeResource(serverId, uri).catch(() => undefined);
      }
    },
    [serverId, uri],
  );
  const subscribe = () => {
    setBusy(true);
    setError(null);
    api
      .subscribeResource(serverId, uri, (update) => {
        setLastUpdate(new Date());
        setUpdates((n) => n + Math.max(1, update.coalesced));
        latest.current();
      })
      .then(
        () => {
          holding.current = true;
          setSubscribed(true);
        },
        (e: unknown) => setError(offerErrorText(e)),
      )
      .finally(() => setBusy(false));
  };
  const unsubscribe = () => {
    holding.current = false;
    setSubscribed(false);
    setLastUpdate(null);
    setUpdates(0);
    api.unsubscribeResource(serverId, uri).catch((e: unknown) => setError(offerErrorText(e)));
  };
  return { subscribed, busy, lastUpdate, updates, error, subscribe, unsubscribe };
}
