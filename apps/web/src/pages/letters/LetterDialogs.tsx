import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { RotateCcw, TriangleAlert } from 'lucide-react';
import { LETTER_CONTENT_MAX, LETTER_TITLE_MAX, type Letter, type LetterSummary } from '@lv/contracts';
import { fetchLetter, letterKeys } from '../../api/letters.js';
import { Button } from '../../components/ui/button.js';
import { ConfirmDeleteDialog, ModalFrame } from '../../components/ui/modal.js';
import { Input, Label, Textarea } from '../../components/ui/input.js';
import { Spinner } from '../../components/ui/spinner.js';
import { cn } from '../../lib/cn.js';
import { formatLetterDate, formatWordCount } from './letter-format.js';
import { isConflict, isUnauthenticated, LETTER_TEXT, toastLetterError } from './letter-messages.js';
import { useDeleteLetter, useReviseLetter } from './use-letters.js';
import { SealLetterSection } from './SealLetterSection.js';

/** A modal frame shared by the viewer, the editor and the wizard: title, close button, scrolling body. */
export function LetterDialogFrame({ open, onOpenChange, title, description, wide, children }: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <ModalFrame
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description ?? 'Letter'}
      descriptionHidden={!description}
      widthClass={wide ? 'max-w-3xl' : 'max-w-2xl'}
    >
      {children}
    </ModalFrame>
  );
}

/** The whole letter, fetched when a dialog opens (the list carries only the first 100 characters). */
function useFullLetter(id: string | null) {
  return useQuery({ queryKey: letterKeys.detail(id ?? ''), queryFn: ({ signal }) => fetchLetter(id!, signal), enabled: id !== null });
}

/** The letter's words, always as text: whatever a letter contains is never interpreted as HTML. */
export function LetterText({ content, className }: { content: string; className?: string }) {
  return <div className={cn('font-serif text-lg leading-relaxed whitespace-pre-wrap break-words', className)}>{content}</div>;
}

/** The letter viewer dialog. */
export function LetterViewerDialog({ summary, onClose, onEdit }: { summary: LetterSummary | null; onClose: () => void; onEdit: (summary: LetterSummary) => void }) {
  return (
    <LetterDialogFrame
      open={summary !== null}
      onOpenChange={(open) => (!open ? onClose() : undefined)}
      title={summary?.title ?? ''}
      description={summary ? `${formatLetterDate(summary.created_at)} · ${formatWordCount(summary.word_count)}` : undefined}
    >
      {summary ? <LetterViewer summary={summary} onClose={onClose} onEdit={onEdit} /> : null}
    </LetterDialogFrame>
  );
}

function LetterViewer({ summary, onClose, onEdit }: { summary: LetterSummary; onClose: () => void; onEdit: (summary: LetterSummary) => void }) {
  const letter = useFullLetter(summary.id);
  return (
    <>
      {letter.data ? (
        <article aria-label="Letter" className="rounded-xl bg-muted/60 p-5">
          <LetterText content={letter.data.content} />
        </article>
      ) : letter.isError ? (
        <p role="alert" className="text-destructive">
          {isUnauthenticated(letter.error) ? LETTER_TEXT.notAuthenticated : 'This letter could not be opened. Please try again.'}
        </p>
      ) : (
        <p className="flex items-center gap-2 text-muted-foreground">
          <Spinner /> Opening your letter…
        </p>
      )}
      <div className="mt-5 flex justify-end gap-2">
        {letter.data ? (
          <Button variant="outline" onClick={() => onEdit(summary)}>
            Edit
          </Button>
        ) : null}
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </>
  );
}

/**
 * The letter editor dialog. It edits the version it loaded: saving sends that version as
 * expectedVersion, so if the letter was saved elsewhere in the meantime nothing is overwritten and
 * the editor says so, with a Reload that fetches the latest words.
 */
export function LetterEditorDialog({ summary, onClose }: { summary: LetterSummary | null; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <LetterDialogFrame open={summary !== null} onOpenChange={(open) => (!open && !busy ? onClose() : undefined)} title="Edit Letter" description="Changes are saved when you choose Save Changes.">
      {/* Mounted while open: every opening loads the letter afresh. */}
      {summary ? <LetterEditor id={summary.id} onClose={onClose} onBusy={setBusy} /> : null}
    </LetterDialogFrame>
  );
}

function LetterEditor({ id, onClose, onBusy }: { id: string; onClose: () => void; onBusy: (busy: boolean) => void }) {
  const letter = useFullLetter(id);
  const revise = useReviseLetter();
  const titleId = useId();
  const contentId = useId();
  /** The version being edited: taken from a fetch made after opening, and only moved by Reload. */
  const [base, setBase] = useState<Letter | null>(null);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [conflict, setConflict] = useState(false);

  const load = (loaded: Letter) => {
    setBase(loaded);
    setTitle(loaded.title);
    setContent(loaded.content);
    setConflict(false);
  };

  // Adopted while rendering (React's "adjusting state when data changes"), not in an effect that would
  // render the empty editor first; `base` is set at once, so this runs once per opening.
  if (!base && letter.data && letter.isFetchedAfterMount && !letter.isFetching) load(letter.data);

  useEffect(() => onBusy(revise.isPending), [revise.isPending, onBusy]);

  const reload = async () => {
    const fresh = await letter.refetch();
    if (fresh.data) load(fresh.data);
  };

  const canSave = base !== null && title.trim() !== '' && content.trim() !== '' && !revise.isPending;

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!canSave || !base) return;
    revise.mutate(
      { id: base.id, change: { title: title.trim(), content: content.trim(), expectedVersion: base.version } },
      {
        onSuccess: () => {
          toast.success(LETTER_TEXT.updated);
          onClose();
        },
        onError: (error) => {
          if (isConflict(error)) {
            setConflict(true);
            toast.error(LETTER_TEXT.updateError, { description: LETTER_TEXT.changedElsewhere });
          } else {
            toastLetterError(LETTER_TEXT.updateError, error);
          }
        },
      },
    );
  };

  if (!base) {
    return letter.isError ? (
      <p role="alert" className="text-destructive">
        {isUnauthenticated(letter.error) ? LETTER_TEXT.notAuthenticated : 'This letter could not be opened. Please try again.'}
      </p>
    ) : (
      <p className="flex items-center gap-2 text-muted-foreground">
        <Spinner /> Opening your letter…
      </p>
    );
  }

  return (
    <>
    <form className="flex flex-col gap-4" onSubmit={save} noValidate>
      {conflict ? (
        <div role="alert" className="flex flex-col gap-3 rounded-xl border border-destructive/40 bg-destructive/10 p-4 text-sm sm:flex-row sm:items-center">
          <TriangleAlert aria-hidden="true" className="h-5 w-5 shrink-0 text-destructive" />
          <p className="flex-1">{LETTER_TEXT.changedElsewhere} Reloading replaces the words below with the saved ones.</p>
          <Button type="button" size="sm" variant="outline" onClick={() => void reload()} disabled={letter.isFetching}>
            <RotateCcw aria-hidden="true" className="h-4 w-4" />
            Reload
          </Button>
        </div>
      ) : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={titleId}>Title</Label>
        <Input id={titleId} value={title} maxLength={LETTER_TITLE_MAX} data-saved-value={base.title} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={contentId}>Letter</Label>
        <Textarea id={contentId} value={content} rows={10} maxLength={LETTER_CONTENT_MAX} data-saved-value={base.content} onChange={(e) => setContent(e.target.value)} />
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onClose} disabled={revise.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canSave}>
          {revise.isPending ? <Spinner className="h-4 w-4" /> : null}
          Save Changes
        </Button>
      </div>
    </form>
    {/* Its own form and request; a seal moves the letter's version, so the words' save goes on from it. */}
    <SealLetterSection letter={base} onChanged={(changed) => setBase({ ...changed, title: base.title, content: base.content })} />
    </>
  );
}

/** Delete, confirmed in a dialog titled "Are you sure?". */
export function DeleteLetterDialog({ summary, onClose }: { summary: LetterSummary | null; onClose: () => void }) {
  const remove = useDeleteLetter();
  const confirm = () => {
    if (!summary) return;
    remove.mutate(summary.id, {
      onSuccess: () => onClose(),
      onError: (error) => toastLetterError(LETTER_TEXT.deleteError, error),
    });
  };
  return (
    <ConfirmDeleteDialog
      open={summary !== null}
      onClose={onClose}
      title="Are you sure?"
      description={<>“{summary?.title}” will be deleted for good. Its words cannot be recovered, not even by us.</>}
      pending={remove.isPending}
      onConfirm={confirm}
    />
  );
}
