// Where an app view's webview goes: the part of its panel the person can see, in whole pixels.
// The view's webview is a native layer over the window, so the window works out what of the panel
// shows (inside the window, not under the sticky header, not scrolled out of a scrolling box) and
// hides the view when nothing shows and whenever a dialog, side sheet or menu of the window is
// open (OVERLAY_SELECTOR; the webview would cover it).

import type { ViewPlacement } from "../api/gatehouse";

/** A box in the window's CSS pixels. */
export type Box = { left: number; top: number; right: number; bottom: number };

/**
 * The elements of the window that, while present, hide every app view: dialogs (the approval
 * dialog included), side sheets, their backdrops, and menus.
 */
export const OVERLAY_SELECTOR = [
  '[role="dialog"]',
  '[role="alertdialog"]',
  '[role="menu"]',
  '[role="listbox"]',
  ".dialog-backdrop",
  ".sheet-backdrop",
  ".menu",
].join(", ");

/** Nothing shown: the view's webview is hidden. */
export const HIDDEN: ViewPlacement = {
  visible: false,
  x: 0,
  y: 0,
  width: 0,
  height: 0,
  viewWidth: 0,
  viewHeight: 0,
  offsetX: 0,
  offsetY: 0,
};

const round = (box: Box): Box => ({
  left: Math.round(box.left),
  top: Math.round(box.top),
  right: Math.round(box.right),
  bottom: Math.round(box.bottom),
});

/**
 * The part of `view` inside every one of `clips`, as a placement in whole pixels (hidden when
 * `covered` or when nothing of it shows).
 */
export function placementOf(view: Box, clips: Box[], covered: boolean): ViewPlacement {
  const whole = round(view);
  const shown = clips.map(round).reduce<Box>(
    (box, clip) => ({
      left: Math.max(box.left, clip.left),
      top: Math.max(box.top, clip.top),
      right: Math.min(box.right, clip.right),
      bottom: Math.min(box.bottom, clip.bottom),
    }),
    whole,
  );
  const width = shown.right - shown.left;
  const height = shown.bottom - shown.top;
  if (covered || width < 1 || height < 1) return HIDDEN;
  return {
    visible: true,
    x: shown.left,
    y: shown.top,
    width,
    height,
    viewWidth: whole.right - whole.left,
    viewHeight: whole.bottom - whole.top,
    offsetX: shown.left - whole.left,
    offsetY: shown.top - whole.top,
  };
}

/** Whether two placements put the webview in the same place. */
export function samePlacement(a: ViewPlacement, b: ViewPlacement): boolean {
  if (a.visible !== b.visible) return false;
  if (!a.visible) return true;
  const keys = ["x", "y", "width", "height", "viewWidth", "viewHeight", "offsetX", "offsetY"] as const;
  return keys.every((k) => a[k] === b[k]);
}
