import { Dialog } from 'radix-ui';
import { FileText, Mic, PenLine, TriangleAlert } from 'lucide-react';
import { Button } from '../components/ui/button.js';
import { DRAFT_LABELS, type DraftKey } from './unsaved.js';

const DRAFT_ICONS: Record<DraftKey, typeof Mic> = {
  unsaved_draft: Mic,
  unsaved_text_draft: FileText,
  unsaved_letter_draft: PenLine,
};

interface SignOutDialogProps {
  open: boolean;
  drafts: readonly DraftKey[];
  /** "Save Drafts & Sign Out" is offered only while unsaved changes are flagged. */
  canSaveDrafts: boolean;
  /** A recorder is running (its draft key may not exist yet). */
  recordingActive?: boolean;
  busy: boolean;
  onSaveAndSignOut: () => void;
  onSignOutWithoutSaving: () => void;
  onCancel: () => void;
  /** Focus target after the dialog closes (the account menu button), if it is still there. */
  returnFocus?: () => HTMLElement | null;
}

/** "Sign Out Warning" (owner-core spec, section 4 "Sign-out with unsaved work"). */
export function SignOutDialog({ open, drafts, canSaveDrafts, recordingActive = false, busy, onSaveAndSignOut, onSignOutWithoutSaving, onCancel, returnFocus }: SignOutDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (!next ? onCancel() : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-overlay data-[state=open]:animate-fade-in" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            const target = returnFocus?.();
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-border bg-card p-6 text-card-foreground shadow-xl data-[state=open]:animate-fade-in">
          <div className="flex items-start gap-3">
            <span className="grid h-10 w-10 shrink-0 place-items-center rounded-full bg-primary/15 text-primary">
              <TriangleAlert aria-hidden="true" className="h-5 w-5" />
            </span>
            <div className="space-y-1">
              <Dialog.Title className="font-serif text-xl font-semibold">Sign Out Warning</Dialog.Title>
              <Dialog.Description className="text-sm text-muted-foreground">
                You have unsaved work. If you sign out now without saving, it may be lost.
              </Dialog.Description>
            </div>
          </div>

          {recordingActive && !drafts.includes('unsaved_draft') ? (
            <p className="mt-5 flex items-center gap-2.5 rounded-lg bg-muted px-3 py-2 text-sm">
              <Mic aria-hidden="true" className="h-4 w-4 text-primary" />A recording is in progress
            </p>
          ) : null}

          {drafts.length > 0 ? (
            <div className="mt-5">
              <h3 className="text-sm font-semibold">Drafts found</h3>
              <ul aria-label="Drafts found" className="mt-2 space-y-2">
                {drafts.map((key) => {
                  const Icon = DRAFT_ICONS[key];
                  return (
                    <li key={key} className="flex items-center gap-2.5 rounded-lg bg-muted px-3 py-2 text-sm">
                      <Icon aria-hidden="true" className="h-4 w-4 text-primary" />
                      {DRAFT_LABELS[key]}
                    </li>
                  );
                })}
              </ul>
            </div>
          ) : !recordingActive ? (
            <p className="mt-5 rounded-lg bg-muted px-3 py-2 text-sm">Unsaved changes on this page</p>
          ) : null}

          <div className="mt-6 flex flex-col gap-2">
            {canSaveDrafts ? (
              <Button onClick={onSaveAndSignOut} disabled={busy}>
                Save Drafts &amp; Sign Out
              </Button>
            ) : null}
            <Button variant="destructive" onClick={onSignOutWithoutSaving} disabled={busy}>
              Sign Out Without Saving
            </Button>
            <Button variant="outline" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
