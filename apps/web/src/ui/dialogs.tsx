import type { ReactNode } from "react";
import { Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";

/** A modal dialog (react-aria-components): focus is trapped and Escape closes it when dismissable. */
export function ModalDialog(p: {
  readonly isOpen: boolean;
  readonly onOpenChange?: (open: boolean) => void;
  readonly title: string;
  readonly children: ReactNode;
  readonly dismissable?: boolean;
  readonly role?: "dialog" | "alertdialog";
  readonly wide?: boolean;
}) {
  return (
    <ModalOverlay
      className="modal-overlay"
      isOpen={p.isOpen}
      {...(p.onOpenChange ? { onOpenChange: p.onOpenChange } : {})}
      isDismissable={p.dismissable ?? false}
      isKeyboardDismissDisabled={!(p.dismissable ?? false)}
    >
      <Modal className={`modal${p.wide ? " modal-wide" : ""}`}>
        <Dialog className="dialog" role={p.role ?? "dialog"}>
          <Heading slot="title" className="dialog-title">
            {p.title}
          </Heading>
          {p.children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
