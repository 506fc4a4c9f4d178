import { useState, type ReactNode } from 'react';
import { ArrowLeft, Download } from 'lucide-react';
import { type ViewerEntry } from '@lv/contracts';
import { fetchViewerDocumentLink, fetchViewerLetter, fetchViewerMediaLink, fetchViewerPosterLink, type ViewerMediaLink } from '../../api/viewer.js';
import { DurationText, PosterThumbnail } from '../../components/media/PosterThumbnail.js';
import { Button } from '../../components/ui/button.js';
import { Spinner } from '../../components/ui/spinner.js';
import { LetterText } from '../letters/LetterDialogs.js';
import { formatDateTime } from './access-format.js';
import { useViewerRead, type ViewerAccess } from './use-viewer-read.js';
import { viewerErrorText } from './viewer-session.js';

export function ViewerLoading() {
  return <p role="status" className="flex items-center gap-2"><Spinner className="h-4 w-4" />Loading…</p>;
}

export function ViewerReadError({ error }: { error: unknown }) {
  return <p role="alert" className="text-destructive">Error: {viewerErrorText(error)}</p>;
}

/** A letter, whole: its title, date and words, readable on a phone without sideways scrolling. */
export function ViewerLetter({ access, id }: { access: ViewerAccess; id: string }) {
  const letter = useViewerRead(access, ['letter', id], (token, signal) => fetchViewerLetter(id, token, signal));
  if (letter.isPending || letter.refused) return <ViewerLoading />;
  if (letter.isError) return <ViewerReadError error={letter.error} />;
  return (
    <article aria-labelledby={`letter-${id}`} className="space-y-3 rounded-2xl border border-border bg-card p-4 sm:p-6">
      <h2 id={`letter-${id}`} className="font-serif text-2xl font-semibold break-words">{letter.data.title}</h2>
      <p className="text-sm text-muted-foreground"><time dateTime={letter.data.created_at}>{formatDateTime(letter.data.created_at)}</time></p>
      <LetterText content={letter.data.content} />
    </article>
  );
}

/**
 * A recording or a picture, played through a link bound to this view session (the browser sends the
 * session's cookie with each Range request, so a revoked key stops it at the next one). Native
 * controls; a download only when the owner allows it for this key.
 */
export function ViewerMedia({ access, id, title }: { access: ViewerAccess; id: string; title: string }) {
  const link = useViewerRead(access, ['media', id], (token, signal) => fetchViewerMediaLink(id, token, signal));
  const [failed, setFailed] = useState(false);
  if (link.isPending || link.refused) return <ViewerLoading />;
  if (link.isError) return <ViewerReadError error={link.error} />;
  // A refused Range request (link past its hour, or the session ended): ask again; the session decides.
  const retry = () => {
    setFailed(false);
    void access.reauthorize().then((ok) => {
      if (ok) void link.refetch();
    });
  };
  return (
    <figure className="space-y-3">
      <MediaElement link={link.data} title={title} onError={() => setFailed(true)} />
      <figcaption className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium break-words">{title}</span>
        {link.data.downloadUrl && <DownloadLink href={link.data.downloadUrl} />}
      </figcaption>
      {failed && (
        <div role="alert" className="space-y-2 text-destructive">
          <p>This could not be played.</p>
          <Button variant="outline" size="sm" onClick={retry}>Try again</Button>
        </div>
      )}
    </figure>
  );
}

function MediaElement({ link, title, onError }: { link: ViewerMediaLink; title: string; onError: () => void }) {
  // No download control in the player unless the key allows downloads (the link itself is inline only).
  const controlsList = link.downloadUrl ? undefined : 'nodownload';
  if (link.mediaKind === 'image') return <img src={link.url} alt={title} className="max-h-[70vh] w-full rounded-xl object-contain" onError={onError} />;
  if (link.mediaKind === 'audio') return <audio controls preload="metadata" src={link.url} aria-label={title} controlsList={controlsList} className="w-full" onError={onError} />;
  return <video controls playsInline preload="metadata" src={link.url} aria-label={title} controlsList={controlsList} className="max-h-[70vh] w-full rounded-xl bg-black" onError={onError} />;
}

function DownloadLink({ href }: { href: string }) {
  return (
    <a href={href} download className="inline-flex items-center gap-2 rounded-lg border border-border px-3 py-2 text-sm font-medium hover:bg-muted">
      <Download className="h-4 w-4" aria-hidden="true" />Download original
    </a>
  );
}

/** A court document previewed in the page (PDFs and pictures); other kinds only say so. */
export function ViewerDocument({ access, id }: { access: ViewerAccess; id: string }) {
  const link = useViewerRead(access, ['document', id], (token, signal) => fetchViewerDocumentLink(id, token, signal));
  if (link.isPending || link.refused) return <ViewerLoading />;
  if (link.isError) return <ViewerReadError error={link.error} />;
  const { url, contentType, fileName, downloadUrl } = link.data;
  return (
    <figure className="space-y-3">
      {contentType.startsWith('image/') ? (
        <img src={url} alt={fileName} className="max-h-[75vh] w-full rounded-xl border border-border object-contain" />
      ) : contentType === 'application/pdf' ? (
        // A view-only key: the browser's PDF viewer is asked to show no toolbar (its save button); a courtesy, not a lock.
        <iframe src={downloadUrl ? url : `${url}#toolbar=0`} title={`Preview of ${fileName}`} className="h-[75vh] w-full rounded-xl border border-border bg-white" />
      ) : (
        <p>This kind of document cannot be previewed here.</p>
      )}
      <figcaption className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-medium break-all">{fileName}</span>
        <span className="flex flex-wrap gap-2">
          {contentType === 'application/pdf' && <a href={url} target="_blank" rel="noopener" className="rounded-lg border border-border px-3 py-2 text-sm font-medium hover:bg-muted">Open in a new tab</a>}
          {downloadUrl && <DownloadLink href={downloadUrl} />}
        </span>
      </figcaption>
    </figure>
  );
}

/** One opened entry of a tab, with the way back to its list. */
export function OpenedEntry({ access, entry, backLabel, onBack }: { access: ViewerAccess; entry: ViewerEntry; backLabel: string; onBack: () => void }) {
  return (
    <div className="space-y-4">
      <Button variant="ghost" size="sm" onClick={onBack}><ArrowLeft className="h-4 w-4" aria-hidden="true" />{backLabel}</Button>
      {entry.kind === 'letter' ? <ViewerLetter access={access} id={entry.id} />
        : entry.kind === 'document' ? <ViewerDocument access={access} id={entry.id} />
        : <ViewerMedia access={access} id={entry.id} title={entry.headline} />}
    </div>
  );
}

/** A video's poster in a tab's list, through a link that opens the poster only; nothing when it cannot be had. */
export function ViewerPoster({ access, entry }: { access: ViewerAccess; entry: ViewerEntry }) {
  const link = useViewerRead(access, ['poster', entry.id], (token, signal) => fetchViewerPosterLink(entry.id, token, signal));
  return <PosterThumbnail src={link.data?.url} title={entry.headline} />;
}

/** An entry of a tab's list: its headline and time (a recording's poster and length too, when given), opened by pressing it. */
export function EntryButton({ entry, onOpen, disabled = false, thumbnail }: { entry: ViewerEntry; onOpen: (entry: ViewerEntry) => void; disabled?: boolean; thumbnail?: ReactNode }) {
  return (
    <li>
      <button
        type="button"
        disabled={disabled}
        onClick={() => onOpen(entry)}
        className="flex w-full flex-wrap items-center justify-between gap-x-3 gap-y-1 px-4 py-3 text-left hover:bg-muted focus-visible:bg-muted disabled:cursor-default disabled:hover:bg-transparent"
      >
        <span className="flex min-w-0 items-center gap-3">
          {thumbnail}
          <span className="min-w-0 font-medium break-words">{entry.headline}</span>
        </span>
        <span className="text-sm text-muted-foreground">
          {typeof entry.duration_seconds === 'number' ? <><DurationText seconds={entry.duration_seconds} /> · </> : null}
          <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
        </span>
      </button>
    </li>
  );
}
