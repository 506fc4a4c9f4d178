import type { MouseEvent, ReactNode } from 'react';
import { AlertDialog, Dialog } from 'radix-ui';
import { X } from 'lucide-react';
import { cn } from '../../lib/cn.js';
import { Button } from './button.js';
import { Spinner } from './spinner.js';

const overlayClass = 'fixed inset-0 z-50 bg-overlay data-[state=open]:animate-fade-in';
const contentClass =
  'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl border border-border bg-card text-card-foreground shadow-xl data-[state=open]:animate-fade-in';

/**
 * A modal dialog: its title is the dialog's accessible name, a line under it says what it is (read
 * to screen readers only when `description` is a string given with `descriptionHidden`), a close
 * button, and a body that scrolls. `widthClass` picks its width (e.g. 'max-w-2xl').
 */
export function ModalFrame({ open, onOpenChange, title, description, descriptionHidden = false, widthClass, children }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  descriptionHidden?: boolean;
  widthClass: string;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={overlayClass} />
        <Dialog.Content className={cn(contentClass, widthClass)}>
          <div className="flex items-start justify-between gap-4 border-b border-border px-6 py-4">
            <div className="min-w-0 space-y-1">
              <Dialog.Title className="font-serif text-xl font-semibold break-words">{title}</Dialog.Title>
              <Dialog.Description className={descriptionHidden ? 'sr-only' : 'text-sm text-muted-foreground'}>{description}</Dialog.Description>
            </div>
            <Dialog.Close aria-label="Close" className="grid h-9 w-9 shrink-0 place-items-center rounded-lg hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring">
              <X aria-hidden="true" className="h-5 w-5" />
            </Dialog.Close>
          </div>
          <div className="overflow-y-auto px-6 py-5">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * "Delete", confirmed: an alert dialog with Cancel and Delete that stays open (both buttons disabled)
 * while `pending`, so a slow delete cannot be confirmed twice or dismissed half-way.
 */
export function ConfirmDeleteDialog({ open, onClose, title, description, pending, onConfirm, confirmLabel = 'Delete' }: {
  open: boolean;
  /** The confirming button's name ('Delete', 'Revoke'). */
  confirmLabel?: string;
  onClose: () => void;
  title: ReactNode;
  description: ReactNode;
  pending: boolean;
  onConfirm: () => void;
}) {
  const confirm = (event: MouseEvent) => {
    event.preventDefault(); // stay open until the delete is done
    onConfirm();
  };
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => (!next && !pending ? onClose() : undefined)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClass} />
        <AlertDialog.Content className={cn(contentClass, 'max-w-md p-6')}>
          <AlertDialog.Title className="font-serif text-xl font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-muted-foreground">{description}</AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <AlertDialog.Cancel asChild>
              <Button variant="outline" disabled={pending}>
                Cancel
              </Button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <Button variant="destructive" onClick={confirm} disabled={pending}>
                {pending ? <Spinner className="h-4 w-4" /> : null}
                {confirmLabel}
              </Button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
