// The window's toasts (Radix Toast): each raised by `showToast` / `useToast`, shown in the
// corner as a status message screen readers announce, with its action and a Dismiss button.
// A toast stays until dismissed while the pointer or focus is on it (Radix pauses the timer)
// and goes by itself after `TOAST_MS`; F8 moves the focus to them.

import * as RadixToast from "@radix-ui/react-toast";
import { dismissToast, useToasts } from "../hooks/useToast";

/** How long a toast shows: long enough to read an error and act on it. */
export const TOAST_MS = 10_000;

export function Toasts() {
  const toasts = useToasts();
  return (
    <RadixToast.Provider duration={TOAST_MS} label="Notification">
      {toasts.map((toast) => (
        <RadixToast.Root
          key={toast.id}
          className="toast"
          type="background"
          data-testid="toast"
          onOpenChange={(open) => !open && dismissToast(toast.id)}
        >
          <RadixToast.Title className="toast-title">
            {toast.title}
            {toast.count > 1 && <span className="toast-count"> ×{toast.count}</span>}
          </RadixToast.Title>
          <RadixToast.Description className="toast-description">{toast.description}</RadixToast.Description>
          <div className="toast-actions">
            {toast.action !== undefined && (
              <RadixToast.Action altText={toast.action.label} className="button button-small" onClick={toast.action.run}>
                {toast.action.label}
              </RadixToast.Action>
            )}
            <RadixToast.Close className="button button-small">Dismiss</RadixToast.Close>
          </div>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="toast-viewport" />
    </RadixToast.Provider>
  );
}
