// Keeps an app view's webview over its panel: whenever the page may have moved (a scroll, a resize,
// any change to the document, and every half second in case of something else), it measures, in
// the next animation frame, the part of the panel's frame element the person can see (see
// model/viewPlacement) and, when that changed, asks the shell to move the webview there
// (`app_place_view`), one request at a time so they apply in order; a placement that would not
// move it is not sent. While a dialog, side sheet or menu of the window is open
// (OVERLAY_SELECTOR) the view is hidden (its webview is a layer over the window and would cover
// it); when nothing of it shows, or the panel goes, it is hidden too.

import { useEffect, useRef } from "react";
import * as api from "../api/gatehouse";
import type { ViewPlacement } from "../api/gatehouse";
import { HIDDEN, OVERLAY_SELECTOR, placementOf, samePlacement } from "../model/viewPlacement";
import type { Box } from "../model/viewPlacement";

/** How often the placement is checked when nothing said the page moved (ms). */
const RECHECK_MS = 500;

/** Sends placements of one view in order, skipping those that would not move it. */
function placementSender(sandboxUrl: string) {
  let sent: ViewPlacement | null = null;
  let wanted: ViewPlacement | null = null;
  let busy = false;
  let warned = false;
  const pump = () => {
    if (busy || wanted === null) return;
    const next = wanted;
    wanted = null;
    if (sent !== null && samePlacement(sent, next)) return;
    busy = true;
    api
      .appPlaceView(sandboxUrl, next)
      .catch((e: unknown) => {
        if (!warned) console.warn("Gatehouse: could not place the app view", e);
        warned = true;
      })
      .finally(() => {
        // Kept even when refused, so a closed view is not asked again every frame.
        sent = next;
        busy = false;
        pump();
      });
  };
  return {
    want(placement: ViewPlacement) {
      wanted = placement;
      pump();
    },
  };
}

const boxOf = (r: DOMRect): Box => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });

/** Where the view shown in `element` goes now. */
export function measurePlacement(element: HTMLElement, fullscreen: boolean): ViewPlacement {
  const root = document.documentElement;
  const viewport: Box = { left: 0, top: 0, right: root.clientWidth || window.innerWidth, bottom: root.clientHeight || window.innerHeight };
  const clips: Box[] = [viewport];
  // Inline, the page scrolls under the sticky header; fullscreen covers it.
  const header = fullscreen ? null : document.querySelector(".app-header");
  if (header !== null) clips.push({ ...viewport, top: header.getBoundingClientRect().bottom });
  for (let box = element.parentElement; box !== null && box !== document.body; box = box.parentElement) {
    const style = getComputedStyle(box);
    if (style.overflowX !== "visible" || style.overflowY !== "visible") clips.push(boxOf(box.getBoundingClientRect()));
  }
  const covered = document.querySelector(OVERLAY_SELECTOR) !== null;
  return placementOf(boxOf(element.getBoundingClientRect()), clips, covered);
}

/**
 * Follows `element` (the view's frame area in its panel) with the webview of the view
 * `sandboxUrl`, from when `active` (the window listens to the view) until it goes.
 */
export function useViewPlacement(
  element: HTMLElement | null,
  sandboxUrl: string,
  { active, fullscreen }: { active: boolean; fullscreen: boolean },
): void {
  const sender = useRef<ReturnType<typeof placementSender> | null>(null);

  useEffect(() => {
    const own = placementSender(sandboxUrl);
    sender.current = own;
    return () => {
      // The panel went: hide the view (its webview is closed with the view).
      own.want(HIDDEN);
      if (sender.current === own) sender.current = null;
    };
  }, [sandboxUrl]);

  useEffect(() => {
    if (element === null || !active) return;
    let frame: number | null = null;
    const measure = () => {
      frame = null;
      sender.current?.want(measurePlacement(element, fullscreen));
    };
    const soon = () => {
      frame ??= requestAnimationFrame(measure);
    };
    measure();
    const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(soon);
    resized?.observe(element);
    resized?.observe(document.documentElement);
    const changed = new MutationObserver(soon);
    changed.observe(document.body, { childList: true, subtree: true, attributes: true });
    window.addEventListener("scroll", soon, { capture: true, passive: true });
    window.addEventListener("resize", soon);
    const recheck = setInterval(soon, RECHECK_MS);
    return () => {
      clearInterval(recheck);
      window.removeEventListener("scroll", soon, { capture: true });
      window.removeEventListener("resize", soon);
      changed.disconnect();
      resized?.disconnect();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [element, active, fullscreen]);
}
