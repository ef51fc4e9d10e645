// Accessible modal dialog on Radix Dialog: labelled by its title, traps focus, closes on Escape,
// and returns focus to whatever was focused before it opened. A click outside does not close
// it (a half-filled form must not vanish). Callers render it while it is open. A dialog that
// must not be answered by a stray key (the approval dialog) focuses itself, not a control.

import * as RadixDialog from "@radix-ui/react-dialog";
import { useRef } from "react";
import type { KeyboardEvent, ReactNode } from "react";

type DialogProps = {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** "alertdialog" for confirmations that interrupt the user. */
  role?: "dialog" | "alertdialog";
  /** id of the element describing the dialog (for alertdialogs). */
  describedBy?: string;
  size?: "small" | "large";
  testId?: string;
  /** Where the focus goes on opening: the first control (default), or the dialog itself. */
  initialFocus?: "first" | "dialog";
  /** Keys pressed anywhere in the dialog. */
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void;
};

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({ title, onClose, children, role = "dialog", describedBy, size = "small", testId, initialFocus = "first", onKeyDown }: DialogProps) {
  const panelRef = useRef<HTMLDivElement>(null);

  // The element marked data-autofocus first, else the first focusable one, else the panel.
  const focusFirst = (event: Event) => {
    event.preventDefault();
    const panel = panelRef.current;
    if (initialFocus === "dialog") {
      panel?.focus();
      return;
    }
    const preferred = panel?.querySelector<HTMLElement>("[data-autofocus]");
    (preferred ?? panel?.querySelector<HTMLElement>(FOCUSABLE) ?? panel)?.focus();
  };

  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-backdrop">
          <RadixDialog.Content
            ref={panelRef}
            className={`dialog dialog-${size}`}
            role={role}
            aria-describedby={describedBy}
            data-testid={testId}
            onOpenAutoFocus={focusFirst}
            onPointerDownOutside={(e) => e.preventDefault()}
            onInteractOutside={(e) => e.preventDefault()}
            onKeyDown={onKeyDown}
          >
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            {children}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
