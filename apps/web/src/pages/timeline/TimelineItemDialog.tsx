import { useQuery } from '@tanstack/react-query';
import { CourtMessages, type TimelineEntry } from '@lv/contracts';
import { fetchLetter, letterKeys } from '../../api/letters.js';
import { ModalFrame } from '../../components/ui/modal.js';
import { Spinner } from '../../components/ui/spinner.js';
import { PreviewBody } from '../court/CourtDocumentItem.js';
import { useCourtDocuments } from '../court/use-court.js';

function Opening({ what }: { what: string }) {
  return (
    <p className="flex items-center gap-2 text-muted-foreground">
      <Spinner /> Opening {what}…
    </p>
  );
}

/** The whole letter, as Letters gives it: its words always as text, never as HTML. */
function LetterBody({ id }: { id: string }) {
  const letter = useQuery({ queryKey: letterKeys.detail(id), queryFn: ({ signal }) => fetchLetter(id, signal) });
  if (letter.isError) return <p role="alert" className="text-destructive">This letter could not be opened. Please try again.</p>;
  if (!letter.data) return <Opening what="your letter" />;
  return (
    <article aria-label="Letter" className="rounded-xl bg-muted/60 p-5">
      <div className="font-serif text-lg leading-relaxed whitespace-pre-wrap break-words">{letter.data.content}</div>
    </article>
  );
}

/** The court document's own preview (the one /court-documents shows), found among the owner's documents. */
function DocumentBody({ id }: { id: string }) {
  const documents = useCourtDocuments(null, 'documents');
  if (documents.isError) return <p role="alert" className="text-destructive">{CourtMessages.previewFailed}</p>;
  if (!documents.data) return <Opening what="the document" />;
  const document = documents.data.find((d) => d.id === id);
  if (!document) return <p role="alert" className="text-destructive">{CourtMessages.notFound}</p>;
  return <PreviewBody document={document} />;
}

/**
 * "View" on the timeline opens the item itself, over the timeline: a letter's words, a court
 * document's preview. (A recording plays in place: "View Media".)
 */
export function TimelineItemDialog({ entry, open, onClose }: { entry: TimelineEntry; open: boolean; onClose: () => void }) {
  const isLetter = entry.source === 'letters';
  return (
    <ModalFrame
      open={open}
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={entry.title}
      description={isLetter ? 'Letter' : 'Court document'}
      descriptionHidden
      widthClass="max-w-3xl"
    >
      {open ? isLetter ? <LetterBody id={entry.id} /> : <DocumentBody id={entry.id} /> : null}
    </ModalFrame>
  );
}
