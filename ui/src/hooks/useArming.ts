// The approval dialog's arming delay: for a moment after a request appears (one second,
// ARMING_DELAY_MS, as browsers do with their permission prompts) its answers are disarmed, so a
// key pressed or a click aimed at what was under the dialog does not answer it. Every key pressed
// while disarmed starts the delay again: someone typing elsewhere when the dialog pops up never
// answers by accident. The check reads the clock at the moment of the key or click
// (`Date.now()`, which tests fake with vitest's timers); a timer only refreshes how the dialog
// looks.

import { useCallback, useEffect, useRef, useState } from "react";

/** How long answers stay disarmed after a request appears (or after a key while disarmed). */
export const ARMING_DELAY_MS = 1000;

export type Arming = {
  /** Whether an answer given now counts. */
  armedNow: () => boolean;
  /** Starts the delay again (a key was pressed while disarmed). */
  restart: () => void;
  /** For the look of the dialog only: whether the delay has passed, as of the last refresh. */
  armed: boolean;
};

/** Arming for the request `key`: disarmed whenever `key` changes, for `delayMs`. */
export function useArming(key: string, delayMs: number = ARMING_DELAY_MS): Arming {
  // Disarmed until the effect below starts the clock.
  const armedAt = useRef(Number.POSITIVE_INFINITY);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [armed, setArmed] = useState(false);
  const [shownKey, setShownKey] = useState(key);
  if (shownKey !== key) {
    setShownKey(key);
    setArmed(false);
  }

  const startClock = useCallback(() => {
    armedAt.current = Date.now() + delayMs;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setArmed(Date.now() >= armedAt.current), delayMs);
  }, [delayMs]);

  useEffect(() => {
    startClock();
    return () => clearTimeout(timer.current);
  }, [key, startClock]);

  const restart = useCallback(() => {
    startClock();
    setArmed(false);
  }, [startClock]);
  const armedNow = useCallback(() => Date.now() >= armedAt.current, []);
  return { armedNow, restart, armed };
}

/** Whether `target` takes typed text: keys there are typing, never answers. */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return true;
  // jsdom has no isContentEditable; the attribute says the same.
  return target.isContentEditable || target.closest('[contenteditable]:not([contenteditable="false"])') !== null;
}
