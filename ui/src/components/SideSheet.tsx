// A panel that slides in from the right over the page (Radix Dialog): labelled by its title,
// closed by Escape, a click outside it or its Close button; focus returns to where it was.

import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

type SideSheetProps = {
  title: string;
  /** A line under the title. */
  subtitle?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
};

export function SideSheet({ title, subtitle, onClose, children, testId }: SideSheetProps) {
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="sheet-backdrop" />
        <RadixDialog.Content className="sheet" data-testid={testId} aria-describedby={undefined}>
          <div className="sheet-header">
            <div>
              <RadixDialog.Title className="sheet-title">{title}</RadixDialog.Title>
              {subtitle !== undefined && <div className="sheet-subtitle muted">{subtitle}</div>}
            </div>
            <RadixDialog.Close className="button button-small">Close</RadixDialog.Close>
          </div>
          <div className="sheet-body">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
