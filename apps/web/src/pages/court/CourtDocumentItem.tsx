import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Download, Eye, FileText, Star, StarOff, Trash2 } from 'lucide-react';
import { CourtMessages, type CourtDocument, type CourtVariant } from '@lv/contracts';
import { fetchCourtFileLink } from '../../api/court.js';
import { Button } from '../../components/ui/button.js';
import { ConfirmDeleteDialog } from '../../components/ui/modal.js';
import { Spinner } from '../../components/ui/spinner.js';
import { CourtDialog } from './CourtDialog.js';
import { courtTexts, formatCourtDate, formatFileSize, isUnauthenticated } from './court-text.js';
import { useDeleteCourtDocument, useSetKeyEvidence } from './use-court.js';

/** Where the browser should go for a link the gateway answered with (a same-origin path). */
const absolute = (url: string) => new URL(url, window.location.href).href;

/**
 * Download (spec: "the result opens in a new tab"). The tab is opened at once, inside the click, so
 * no popup blocker stops it; it is sent to the signed link when that arrives (the file is served as
 * an attachment, so the browser saves it). Without a tab (blocked anyway) this page follows the link:
 * an attachment does not navigate away.
 */
async function downloadDocument(document: CourtDocument, variant: CourtVariant): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  // The new tab must not reach back into the vault.
  if (tab) tab.opener = null;
  try {
    const link = await fetchCourtFileLink(document.id, 'attachment');
    if (tab) tab.location.href = absolute(link.url);
    else window.location.assign(absolute(link.url));
  } catch (error) {
    tab?.close();
    toast.error(CourtMessages.downloadFailedTitle, { description: isUnauthenticated(error) ? CourtMessages.notAuthenticated : courtTexts(variant).downloadFailed });
  }
}

/** The preview of one document: PDFs in a frame, images as an image, anything else says it cannot be shown (also the timeline's View). */
export function PreviewBody({ document }: { document: CourtDocument }) {
  const inline = document.file_kind === 'pdf' || document.file_kind === 'jpeg' || document.file_kind === 'png';
  const link = useQuery({
    queryKey: ['court-file-link', document.id, 'inline'],
    queryFn: () => fetchCourtFileLink(document.id, 'inline'),
    enabled: inline,
    // A fresh link every time the preview opens: they are short-lived.
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });
  const [broken, setBroken] = useState(false);

  if (!inline) return <p className="text-muted-foreground">{CourtMessages.previewUnavailable}</p>;
  if (link.isError || broken) {
    return (
      <p role="alert" className="text-destructive">
        {CourtMessages.previewFailed}
      </p>
    );
  }
  if (!link.data) {
    return (
      <p className="flex items-center gap-2 text-muted-foreground">
        <Spinner /> Opening the preview…
      </p>
    );
  }
  const src = absolute(link.data.url);
  if (document.file_kind === 'pdf') {
    return <iframe title={`Preview of ${document.title}`} src={src} className="h-[70dvh] w-full rounded-xl border border-border bg-white" />;
  }
  return <img src={src} alt={`Preview of ${document.title}`} onError={() => setBroken(true)} className="mx-auto max-h-[70dvh] max-w-full rounded-xl object-contain" />;
}

function DeleteDocumentDialog({ document, open, onClose }: { document: CourtDocument; open: boolean; onClose: () => void }) {
  const remove = useDeleteCourtDocument();
  const confirm = () =>
    remove.mutate(document.id, {
      onSuccess: () => {
        toast.success(CourtMessages.deleted);
        onClose();
      },
      onError: (error) => toast.error(isUnauthenticated(error) ? CourtMessages.notAuthenticated : CourtMessages.deleteFailed),
    });
  return (
    <ConfirmDeleteDialog
      open={open}
      onClose={onClose}
      title={CourtMessages.deleteConfirmTitle}
      description={<>“{document.title}”: {CourtMessages.deleteConfirm}</>}
      pending={remove.isPending}
      onConfirm={confirm}
    />
  );
}

/**
 * One court document, the same on /court-documents and /court-journal: title, category, date, file
 * name, size and the "Key evidence" badge, with Preview, Download, key evidence and Delete.
 */
export function CourtDocumentItem({ document, variant, headingLevel = 3 }: { document: CourtDocument; variant: CourtVariant; headingLevel?: 3 | 4 }) {
  const headingId = useId();
  const [previewing, setPreviewing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const keyEvidence = useSetKeyEvidence();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';

  const toggleKeyEvidence = () => {
    const next = !document.is_key_evidence;
    keyEvidence.mutate(
      { id: document.id, isKeyEvidence: next },
      {
        onSuccess: () => toast.success(next ? CourtMessages.keyEvidenceMarked : CourtMessages.keyEvidenceUnmarked),
        onError: (error) => toast.error(isUnauthenticated(error) ? CourtMessages.notAuthenticated : CourtMessages.updateFailed),
      },
    );
  };

  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-4 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="flex min-w-0 items-start gap-3">
          <FileText aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-primary" />
          <div className="min-w-0">
            <Heading id={headingId} className="font-serif text-lg font-semibold break-words">
              {document.title}
            </Heading>
            <p className="text-sm text-muted-foreground">
              <span>{document.category}</span>
              <span aria-hidden="true"> · </span>
              <time dateTime={document.upload_date}>{formatCourtDate(document.upload_date)}</time>
            </p>
            <p className="text-sm text-muted-foreground break-all">
              <span>{document.file_name}</span>
              <span aria-hidden="true"> · </span>
              <span>{formatFileSize(document.size)}</span>
            </p>
            {document.description ? <p className="mt-1 text-sm break-words whitespace-pre-line">{document.description}</p> : null}
          </div>
        </div>
        {document.is_key_evidence ? (
          <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-primary/15 px-2.5 py-0.5 text-xs font-semibold text-primary">
            <Star aria-hidden="true" className="h-3.5 w-3.5" />
            Key evidence
          </span>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => setPreviewing(true)}>
          <Eye aria-hidden="true" className="h-4 w-4" />
          Preview
        </Button>
        <Button size="sm" variant="outline" onClick={() => void downloadDocument(document, variant)}>
          <Download aria-hidden="true" className="h-4 w-4" />
          Download
        </Button>
        <Button size="sm" variant="outline" onClick={toggleKeyEvidence} disabled={keyEvidence.isPending}>
          {document.is_key_evidence ? <StarOff aria-hidden="true" className="h-4 w-4" /> : <Star aria-hidden="true" className="h-4 w-4" />}
          {document.is_key_evidence ? 'Unmark key evidence' : 'Mark as key evidence'}
        </Button>
        <Button size="sm" variant="ghost" className="text-destructive hover:bg-destructive/10" onClick={() => setDeleting(true)}>
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          Delete
        </Button>
      </div>

      <CourtDialog
        open={previewing}
        onOpenChange={(open) => (!open ? setPreviewing(false) : undefined)}
        title={document.title}
        description={`${document.file_name} · ${formatFileSize(document.size)}`}
        wide
      >
        {/* Mounted while open: every opening asks for a fresh link. */}
        {previewing ? <PreviewBody document={document} /> : null}
      </CourtDialog>
      <DeleteDocumentDialog document={document} open={deleting} onClose={() => setDeleting(false)} />
    </li>
  );
}

/** A list of documents, or the empty state. */
export function CourtDocumentList({ documents, variant, label, headingLevel }: { documents: CourtDocument[]; variant: CourtVariant; label: string; headingLevel?: 3 | 4 }) {
  if (documents.length === 0) return <p className="text-muted-foreground">{CourtMessages.noDocuments}</p>;
  return (
    <ul aria-label={label} className="flex flex-col gap-3">
      {documents.map((document) => (
        <CourtDocumentItem key={document.id} document={document} variant={variant} headingLevel={headingLevel} />
      ))}
    </ul>
  );
}
