// A question for the person that something else awaits: `ask(subject)` shows it and resolves
// with the answer. One question at a time: a new one answers the one before with no. A question
// still open when the component goes away is answered no.

import { useCallback, useEffect, useRef, useState } from "react";

type Pending<T> = { subject: T; resolve: (yes: boolean) => void };

export function useConfirmation<T>() {
  const [pending, setPending] = useState<Pending<T> | null>(null);
  const open = useRef<Pending<T> | null>(null);

  const ask = useCallback((subject: T) => {
    return new Promise<boolean>((resolve) => {
      open.current?.resolve(false);
      const next = { subject, resolve };
      open.current = next;
      setPending(next);
    });
  }, []);

  const answer = useCallback((yes: boolean) => {
    const current = open.current;
    open.current = null;
    setPending(null);
    current?.resolve(yes);
  }, []);

  useEffect(
    () => () => {
      open.current?.resolve(false);
      open.current = null;
    },
    [],
  );

  return { subject: pending?.subject ?? null, ask, answer };
}
