// Which waiting request the window puts before the person: the oldest one not set aside
// ("Decide later"), or the one chosen on the Approvals page, in the tray or on a notification.
// The dialog sits above every page, so it is shared through a context.

import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import * as api from "../../api/gatehouse";
import type { ReactNode } from "react";

type PromptState = {
  /** Requests set aside with "Decide later". */
  later: ReadonlySet<string>;
  /** A request the person chose to answer now. */
  chosen: string | null;
  setAside: (id: string) => void;
  show: (id: string) => void;
};

const PromptContext = createContext<PromptState | null>(null);

export function ApprovalPromptProvider({ children }: { children: ReactNode }) {
  const [later, setLater] = useState<ReadonlySet<string>>(new Set());
  const [chosen, setChosen] = useState<string | null>(null);
  const setAside = useCallback((id: string) => {
    setLater((set) => new Set(set).add(id));
    setChosen((current) => (current === id ? null : current));
  }, []);
  const show = useCallback((id: string) => {
    setLater((set) => {
      const next = new Set(set);
      next.delete(id);
      return next;
    });
    setChosen(id);
  }, []);
  // Chosen outside the window: before it opened (asked once), or while it is open (an event).
  useEffect(() => {
    let live = true;
    api
      .takeChosenApproval()
      .then((id) => {
        if (live && id !== null) show(id);
      })
      .catch(() => null);
    const unsubscribe = api.subscribeApprovalChosen((event) => show(event.id));
    return () => {
      live = false;
      unsubscribe();
    };
  }, [show]);
  const value = useMemo(() => ({ later, chosen, setAside, show }), [later, chosen, setAside, show]);
  return <PromptContext.Provider value={value}>{children}</PromptContext.Provider>;
}

export function useApprovalPrompt(): PromptState {
  const state = useContext(PromptContext);
  if (state === null) throw new Error("useApprovalPrompt needs an ApprovalPromptProvider");
  return state;
}
