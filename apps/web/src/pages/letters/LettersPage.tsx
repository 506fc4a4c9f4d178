import { lazy, Suspense, useId, useState } from 'react';
import { Eye, Feather, Pencil, PenLine, Sparkles, Trash2 } from 'lucide-react';
import type { LetterSummary } from '@lv/contracts';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { browserStorage, readLetterDraft } from './letter-draft.js';
import { formatLetterDate, formatWordCount, previewText } from './letter-format.js';
import { isUnauthenticated, LETTER_TEXT } from './letter-messages.js';
import { DeleteLetterDialog, LetterEditorDialog, LetterViewerDialog } from './LetterDialogs.js';
import { NewLetterForm } from './NewLetterForm.js';
import { useLetterList } from './use-letters.js';

// The AI Assistant's wizard (its templates are most of its weight) loads when first opened, not with the page.
const LetterWizardDialog = lazy(() => import('./wizard/LetterWizardDialog.js').then((m) => ({ default: m.LetterWizardDialog })));
import { MilestoneBadge } from './SealLetterSection.js';

function LetterCard({ letter, onView, onEdit, onDelete }: { letter: LetterSummary; onView: () => void; onEdit: () => void; onDelete: () => void }) {
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-5 shadow-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 id={headingId} className="min-w-0 font-serif text-xl font-semibold break-words">
          {letter.title}
        </h3>
        <p className="flex shrink-0 items-center gap-2 text-sm text-muted-foreground">
          <time dateTime={letter.created_at}>{formatLetterDate(letter.created_at)}</time>
          <span aria-hidden="true">·</span>
          <span>{formatWordCount(letter.word_count)}</span>
        </p>
      </div>
      {letter.milestone ? <MilestoneBadge milestone={letter.milestone} /> : null}
      <p className="text-muted-foreground break-words whitespace-pre-line">{previewText(letter.preview, letter.word_count)}</p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={onView}>
          <Eye aria-hidden="true" className="h-4 w-4" />
          View
        </Button>
        <Button size="sm" variant="outline" onClick={onEdit}>
          <Pencil aria-hidden="true" className="h-4 w-4" />
          Edit
        </Button>
        <Button size="sm" variant="ghost" className="text-destructive hover:bg-destructive/10" onClick={onDelete}>
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          Delete
        </Button>
      </div>
    </li>
  );
}

/** Letters Unsent (/letters): the owner's letters, newest first, and the ways to write one. */
export function LettersPage() {
  usePageTitle('Letters Unsent');
  const { user } = useAuth();
  const list = useLetterList(user !== null);
  const [formOpen, setFormOpen] = useState(false);
  const [wizardOpen, setWizardOpenState] = useState(false);
  // Once opened, the wizard stays mounted so it can close with its animation and open again at once.
  const [wizardOpened, setWizardOpened] = useState(false);
  const setWizardOpen = (open: boolean) => {
    if (open) setWizardOpened(true);
    setWizardOpenState(open);
  };
  const [viewing, setViewing] = useState<LetterSummary | null>(null);
  const [editing, setEditing] = useState<LetterSummary | null>(null);
  const [deleting, setDeleting] = useState<LetterSummary | null>(null);
  const hasDraft = user !== null && readLetterDraft(browserStorage(), user.id) !== null;

  if (!user) {
    return (
      <div className="mx-auto max-w-4xl px-4 py-10">
        <p role="alert">{LETTER_TEXT.notAuthenticated}</p>
      </div>
    );
  }

  const letters = list.data?.pages.flatMap((page) => page.letters) ?? [];

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-col gap-5">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Letters Unsent</h1>
          <p className="mt-2 max-w-2xl text-muted-foreground">
            The things you want to say, kept safe until the day they are ready to be read. Only you can see these letters.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={() => setFormOpen(true)} aria-expanded={formOpen}>
            <PenLine aria-hidden="true" className="h-4 w-4" />
            Write New Letter
          </Button>
          <Button variant="outline" onClick={() => setWizardOpen(true)}>
            <Sparkles aria-hidden="true" className="h-4 w-4" />
            Write with AI Assistant
          </Button>
          {hasDraft && !formOpen ? <p className="text-sm text-muted-foreground">You have an unsaved letter draft: it opens with Write New Letter.</p> : null}
        </div>
      </header>

      {formOpen ? <NewLetterForm owner={user.id} onClose={() => setFormOpen(false)} /> : null}

      <section aria-labelledby="letters-list-title" aria-busy={list.isPending || undefined}>
        <h2 id="letters-list-title" className="sr-only">
          Your letters
        </h2>
        {list.isPending ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <Spinner /> Loading your letters…
          </p>
        ) : list.isError && letters.length === 0 ? (
          <div role="alert" className="flex flex-col items-start gap-3 rounded-2xl border border-border bg-card p-6">
            <p>{isUnauthenticated(list.error) ? LETTER_TEXT.notAuthenticated : 'Your letters could not be loaded.'}</p>
            {!isUnauthenticated(list.error) ? (
              <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
                Try again
              </Button>
            ) : null}
          </div>
        ) : letters.length === 0 ? (
          <div className="flex flex-col items-center gap-3 rounded-3xl border border-dashed border-border px-6 py-14 text-center">
            <Feather aria-hidden="true" className="h-10 w-10 text-primary" />
            <p className="font-serif text-2xl">No letters yet</p>
            <p className="max-w-md text-muted-foreground">
              Start with a few honest lines. A letter does not need to be perfect to mean the world to the person who reads it.
            </p>
          </div>
        ) : (
          <>
            <ul aria-label="Your letters" className="flex flex-col gap-4">
              {letters.map((letter) => (
                <LetterCard
                  key={letter.id}
                  letter={letter}
                  onView={() => setViewing(letter)}
                  onEdit={() => setEditing(letter)}
                  onDelete={() => setDeleting(letter)}
                />
              ))}
            </ul>
            {list.hasNextPage ? (
              <div className="mt-6 flex justify-center">
                <Button variant="outline" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                  {list.isFetchingNextPage ? <Spinner className="h-4 w-4" /> : null}
                  Show older letters
                </Button>
              </div>
            ) : null}
          </>
        )}
      </section>

      <LetterViewerDialog
        summary={viewing}
        onClose={() => setViewing(null)}
        onEdit={(letter) => {
          setViewing(null);
          setEditing(letter);
        }}
      />
      <LetterEditorDialog summary={editing} onClose={() => setEditing(null)} />
      <DeleteLetterDialog summary={deleting} onClose={() => setDeleting(null)} />
      {wizardOpened ? (
        <Suspense fallback={null}>
          <LetterWizardDialog open={wizardOpen} onClose={() => setWizardOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
