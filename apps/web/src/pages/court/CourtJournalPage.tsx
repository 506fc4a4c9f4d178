import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import { CalendarDays, FileArchive, FolderOpen, Lightbulb, Upload } from 'lucide-react';
import { COURT_CATEGORIES, COURT_JOURNAL_TIPS, COURT_TIP_ROTATION_MS, CourtMessages, type CourtDocument, type CourtCategory } from '@lv/contracts';
import { fetchEvidenceBundleLink } from '../../api/court.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { CourtDialog } from './CourtDialog.js';
import { CourtDocumentList } from './CourtDocumentItem.js';
import { SecurityNotice } from './CourtDocumentsPage.js';
import { CourtUploadForm } from './CourtUploadForm.js';
import { courtTexts, formatDayHeading, groupDocumentsByDay, isUnauthenticated } from './court-text.js';
import { useCourtDocuments } from './use-court.js';

/** The rotating tip card: the next tip every COURT_TIP_ROTATION_MS. */
export function TipCard() {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setIndex((i) => (i + 1) % COURT_JOURNAL_TIPS.length), COURT_TIP_ROTATION_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <aside aria-label="Tip" className="flex items-start gap-3 rounded-2xl border border-border bg-secondary/40 p-4">
      <Lightbulb aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
      <p data-testid="court-tip">{COURT_JOURNAL_TIPS[index]}</p>
    </aside>
  );
}

/**
 * Export evidence bundle: asks for a short-lived link to the ZIP (the files, manifest, chain, signed
 * head and README) and lets the browser save it; the page stays where it is.
 */
async function exportEvidenceBundle(): Promise<void> {
  const link = await fetchEvidenceBundleLink();
  const anchor = document.createElement('a');
  anchor.href = new URL(link.url, window.location.href).href;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

function CategoryCard({ category, count, onUpload, onViewAll }: { category: CourtCategory; count: number | null; onUpload: () => void; onViewAll: () => void }) {
  const headingId = useId();
  return (
    <li aria-labelledby={headingId} className="flex flex-col justify-between gap-4 rounded-2xl border border-border bg-card p-5 shadow-sm">
      <div>
        <h3 id={headingId} className="font-serif text-lg font-semibold">
          {category}
        </h3>
        {count !== null ? <p className="text-sm text-muted-foreground">{count === 1 ? '1 document' : `${count} documents`}</p> : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={onUpload} aria-describedby={headingId}>
          <Upload aria-hidden="true" className="h-4 w-4" />
          Upload
        </Button>
        <Button size="sm" variant="outline" onClick={onViewAll} aria-describedby={headingId}>
          <FolderOpen aria-hidden="true" className="h-4 w-4" />
          View All
        </Button>
      </div>
    </li>
  );
}

/** A category's documents, fetched when its View All dialog opens. */
function CategoryDocuments({ category }: { category: CourtCategory }) {
  const list = useCourtDocuments(category, 'journal');
  if (list.isPending) {
    return (
      <p className="flex items-center gap-2 text-muted-foreground">
        <Spinner /> Loading…
      </p>
    );
  }
  if (list.isError) {
    return (
      <p role="alert" className="text-destructive">
        {isUnauthenticated(list.error) ? CourtMessages.notAuthenticated : courtTexts('journal').loadFailed}
      </p>
    );
  }
  return <CourtDocumentList documents={list.data} variant="journal" label={`${category} documents`} />;
}

function JournalTimeline({ documents }: { documents: CourtDocument[] }) {
  const days = groupDocumentsByDay(documents);
  if (days.length === 0) return <p className="text-muted-foreground">{CourtMessages.noDocuments}</p>;
  return (
    <div className="flex flex-col gap-6">
      {days.map(({ day, documents: onDay }) => (
        <section key={day} aria-label={formatDayHeading(day)}>
          <h3 className="mb-3 flex items-center gap-2 font-serif text-xl font-semibold">
            <CalendarDays aria-hidden="true" className="h-5 w-5 text-primary" />
            {formatDayHeading(day)}
          </h3>
          <div className="border-l-2 border-primary/20 pl-4">
            <CourtDocumentList documents={onDay} variant="journal" label={`Documents of ${formatDayHeading(day)}`} headingLevel={4} />
          </div>
        </section>
      ))}
    </div>
  );
}

type OpenDialog = { kind: 'upload' | 'view'; category: CourtCategory } | null;

/**
 * The Court Journal (/court-journal): six category cards with Upload and View All, the rotating tip
 * card, the Court Journal Timeline (every court document of the owner, by day) and the evidence
 * bundle export (spec, section 2; issue 11).
 */
export function CourtJournalPage() {
  usePageTitle('Court Journal');
  const { user } = useAuth();
  const all = useCourtDocuments(null, 'journal', user !== null);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [exporting, setExporting] = useState(false);

  if (!user) {
    return (
      <div className="mx-auto max-w-5xl px-4 py-10">
        <p role="alert">{CourtMessages.notAuthenticated}</p>
      </div>
    );
  }

  const documents = all.data ?? [];
  const countOf = (category: CourtCategory) => (all.data ? all.data.filter((d) => d.category === category).length : null);

  const exportBundle = () => {
    setExporting(true);
    exportEvidenceBundle()
      .catch(() => toast.error(CourtMessages.exportFailed))
      .finally(() => setExporting(false));
  };

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl font-semibold tracking-tight">Court Journal</h1>
          <p className="mt-2 max-w-2xl text-muted-foreground">
            Receipts, photos, messages and statements, filed by category and date, with a signed record a court can check.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/court-documents" className={buttonClasses({ variant: 'ghost' })}>
            Court Documents
          </Link>
          <Button variant="outline" onClick={exportBundle} disabled={exporting}>
            {exporting ? <Spinner className="h-4 w-4" /> : <FileArchive aria-hidden="true" className="h-4 w-4" />}
            Export evidence bundle
          </Button>
        </div>
      </header>

      <TipCard />
      <SecurityNotice />

      <section aria-labelledby="court-categories-title" className="flex flex-col gap-4">
        <h2 id="court-categories-title" className="font-serif text-2xl font-semibold">
          Categories
        </h2>
        <ul aria-label="Categories" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {COURT_CATEGORIES.map((category) => (
            <CategoryCard
              key={category}
              category={category}
              count={countOf(category)}
              onUpload={() => setDialog({ kind: 'upload', category })}
              onViewAll={() => setDialog({ kind: 'view', category })}
            />
          ))}
        </ul>
      </section>

      <section aria-labelledby="court-timeline-title" aria-busy={all.isPending || undefined} className="flex flex-col gap-4">
        <h2 id="court-timeline-title" className="font-serif text-2xl font-semibold">
          Court Journal Timeline
        </h2>
        {all.isPending ? (
          <p className="flex items-center gap-2 text-muted-foreground">
            <Spinner /> Loading your journal…
          </p>
        ) : all.isError && documents.length === 0 ? (
          <div role="alert" className="flex flex-col items-start gap-3 rounded-2xl border border-border bg-card p-6">
            <p>{isUnauthenticated(all.error) ? CourtMessages.notAuthenticated : courtTexts('journal').loadFailed}</p>
            <Button variant="outline" size="sm" onClick={() => void all.refetch()}>
              Try again
            </Button>
          </div>
        ) : (
          <JournalTimeline documents={documents} />
        )}
      </section>

      <CourtDialog
        open={dialog?.kind === 'upload'}
        onOpenChange={(open) => (!open ? setDialog(null) : undefined)}
        title={dialog ? `Upload to ${dialog.category}` : ''}
        description="A title and a file: PDF, Word, JPG, PNG or text, up to 10MB."
      >
        {dialog?.kind === 'upload' ? <CourtUploadForm category={dialog.category} submitLabel="Upload" onUploaded={() => setDialog(null)} /> : null}
      </CourtDialog>
      <CourtDialog
        open={dialog?.kind === 'view'}
        onOpenChange={(open) => (!open ? setDialog(null) : undefined)}
        title={dialog?.category ?? ''}
        description="Every document in this category, newest first."
        wide
      >
        {dialog?.kind === 'view' ? <CategoryDocuments category={dialog.category} /> : null}
      </CourtDialog>
    </div>
  );
}
