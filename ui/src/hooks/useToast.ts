// Toasts: short notes about background actions that failed, each saying what to do about it.
// The list lives in a small store outside React, so a hook or a cleanup function can raise one
// (`showToast`) as well as a component (`useToast`); `Toasts` renders it. It is bounded: at most
// `MAX_TOASTS` at once (the oldest goes), texts cut to a bound, and the same note raised again
// replaces the one showing, counted, instead of stacking.

import { useSyncExternalStore } from "react";
import { capText, MAX_NAME_CHARS } from "../model/capText";

export type ToastInput = {
  /** What failed, short: "Could not cancel the call". */
  title: string;
  /** Why, and what the person can do about it. */
  description: string;
  /** One button that does something about it. */
  action?: { label: string; run: () => void };
};

export type Toast = ToastInput & { id: number; count: number };

export const MAX_TOASTS = 4;
const MAX_DESCRIPTION = 600;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of [...listeners]) listener();
}

/** `text` ending as a sentence does (with a full stop unless it has one), to go before advice. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Raises a toast; returns its id. */
export function showToast(input: ToastInput): number {
  const title = capText(input.title, MAX_NAME_CHARS);
  const description = capText(input.description, MAX_DESCRIPTION);
  const same = toasts.find((t) => t.title === title && t.description === description);
  if (same !== undefined) {
    publish([...toasts.filter((t) => t !== same), { ...same, ...input, title, description, count: same.count + 1 }]);
    return same.id;
  }
  const id = nextId++;
  publish([...toasts, { ...input, title, description, id, count: 1 }].slice(-MAX_TOASTS));
  return id;
}

export function dismissToast(id: number): void {
  if (toasts.some((t) => t.id === id)) publish(toasts.filter((t) => t.id !== id));
}

/** Takes every toast away (for tests). */
export function clearToasts(): void {
  publish([]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => toasts;

/** The toasts showing now. */
export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** For components: raise and dismiss toasts. */
export function useToast(): { show: typeof showToast; dismiss: typeof dismissToast } {
  return { show: showToast, dismiss: dismissToast };
}
