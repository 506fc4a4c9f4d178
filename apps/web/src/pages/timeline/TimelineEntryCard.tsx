import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { toast } from 'sonner';
import { FileText, Mic, PenLine, ShieldAlert, ShieldCheck, Trash2, Video } from 'lucide-react';
import { CourtMessages, MediaMessages, type MediaType, type TimelineEntry } from '@lv/contracts';
import { courtKeys } from '../../api/court.js';
import { letterKeys } from '../../api/letters.js';
import { deleteTimelineEntry, mediaKeys } from '../../api/media.js';
import { ApiError } from '../../api/client.js';
import { MediaPlayer } from '../../components/media/MediaPlayer.js';
import { OwnerPoster } from '../../components/media/OwnerPoster.js';
import { DurationText } from '../../components/media/PosterThumbnail.js';
import { Button } from '../../components/ui/button.js';
import { formatDateTime, formatTime } from '../../lib/dates.js';
import { TimelineItemDialog } from './TimelineItemDialog.js';

const ICONS = { video: Video, audio: Mic, letter: PenLine, text: FileText, document: FileText, journal: FileText } as const;
const TYPE_LABELS = { video: 'Video', audio: 'Audio', letter: 'Letter', text: 'Text', document: 'Document', journal: 'Journal' } as const;

export const DELETE_FAILED = { title: 'Delete failed', description: 'Failed to delete the entry. Please try again.' } as const;

/** What the confirmation says goes with the entry: each kind is deleted in its own place, with what it holds. */
function deleteConsequence(entry: TimelineEntry): string {
  if (entry.source === 'letters') return `“${entry.title}” will be deleted from your letters and your timeline. This cannot be undone.`;
  if (entry.source === 'court-journal') return `“${entry.title}”: ${CourtMessages.deleteConfirm}`;
  return `“${entry.title}” will be deleted from your vault and your timeline, with its recording. This cannot be undone.`;
}

function DeleteEntryDialog({ entry, open, busy, onConfirm, onCancel }: { entry: TimelineEntry; open: boolean; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (!next ? onCancel() : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-overlay data-[state=open]:animate-fade-in" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-border bg-card p-6 text-card-foreground shadow-xl data-[state=open]:animate-fade-in">
          <Dialog.Title className="font-serif text-xl font-semibold">Are you sure?</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-muted-foreground">{deleteConsequence(entry)}</Dialog.Description>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="outline" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button variant="destructive" onClick={onConfirm} disabled={busy}>
              {busy ? 'Deleting…' : 'Delete'}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * One timeline entry (spec, sections 2 and 4 "Timeline media"): a recording offers Play, and
 * "View Media" / "Hide Media" to show or hide its player; a letter or a court document offers View,
 * which opens the item itself over the timeline. Every entry can be deleted, after a confirmation,
 * through the service that owns it. A video shows its poster and a recording its length once the
 * playback copy is made (none while pending or failed: the type's icon then).
 */
export function TimelineEntryCard({ entry, compactDate = false }: { entry: TimelineEntry; compactDate?: boolean }) {
  const queryClient = useQueryClient();
  const [mediaShown, setMediaShown] = useState(false);
  const [autoPlay, setAutoPlay] = useState(false);
  const [playCount, setPlayCount] = useState(0);
  const [confirming, setConfirming] = useState(false);
  const [viewing, setViewing] = useState(false);
  const isMedia = entry.source === 'vault-media' && (entry.type === 'video' || entry.type === 'audio');
  const Icon = ICONS[entry.type] ?? FileText;
  const icon = (
    <span aria-hidden="true" className="grid h-11 w-11 shrink-0 place-items-center rounded-xl bg-primary/15 text-primary">
      <Icon className="h-5 w-5" />
    </span>
  );

  const remove = useMutation({
    mutationFn: () => deleteTimelineEntry(entry.id),
    onSuccess: async () => {
      setConfirming(false);
      toast.success('Entry deleted', { description: `“${entry.title}” is no longer in your vault.` });
      // The item's own lists (letters, court documents) lose it too.
      await Promise.all([mediaKeys.all, letterKeys.all, courtKeys.all].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
    onError: (error) => {
      setConfirming(false);
      console.warn('Delete failed', error);
      if (error instanceof ApiError && error.body.message === MediaMessages.cannotDeleteEntry) toast.error(MediaMessages.cannotDeleteEntry);
      else if (error instanceof ApiError && error.body.message === MediaMessages.invalidEntryId) toast.error(MediaMessages.invalidEntryId);
      else toast.error(DELETE_FAILED.title, { description: DELETE_FAILED.description });
    },
  });

  const play = () => {
    setAutoPlay(true);
    setPlayCount((n) => n + 1);
    setMediaShown(true);
  };

  return (
    <li className="rounded-2xl border border-border bg-card p-5 shadow-sm" data-testid="timeline-entry" data-entry-type={entry.type}>
      <div className="flex items-start gap-4">
        {isMedia && entry.poster ? <OwnerPoster recordingId={entry.id} title={entry.title} fallback={icon} /> : icon}
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-serif text-lg font-semibold">{entry.title}</h3>
          <p className="text-sm text-muted-foreground">
            <span className="rounded-md bg-muted px-1.5 py-0.5 text-xs font-medium">{TYPE_LABELS[entry.type] ?? entry.type}</span>{' '}
            <time dateTime={entry.timestamp}>{(compactDate ? formatTime : formatDateTime)(entry.timestamp)}</time>
            {entry.word_count !== null ? ` · ${entry.word_count} words` : null}
            {isMedia && typeof entry.duration_seconds === 'number' ? <> · <DurationText seconds={entry.duration_seconds} /></> : null}
          </p>
          {entry.integrity === 'verified' ? (
            <p className="mt-1 flex items-center gap-1.5 text-xs text-accent-foreground">
              <ShieldCheck aria-hidden="true" className="h-3.5 w-3.5" />
              Verified: stored exactly as you saved it
            </p>
          ) : entry.integrity === 'mismatch' ? (
            <p role="note" className="mt-1 flex items-center gap-1.5 text-xs text-destructive">
              <ShieldAlert aria-hidden="true" className="h-3.5 w-3.5" />
              {MediaMessages.integrityMismatch}
            </p>
          ) : null}
        </div>
      </div>

      <div className="mt-4 flex flex-wrap gap-2">
        {isMedia ? (
          <>
            <Button size="sm" onClick={play}>
              Play
            </Button>
            <Button size="sm" variant="outline" aria-expanded={mediaShown} onClick={() => { setAutoPlay(false); setMediaShown((v) => !v); }}>
              {mediaShown ? 'Hide Media' : 'View Media'}
            </Button>
          </>
        ) : entry.source === 'letters' || entry.source === 'court-journal' ? (
          <Button size="sm" variant="outline" aria-label={`View ${entry.title}`} aria-haspopup="dialog" onClick={() => setViewing(true)}>
            View
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" aria-label={`Delete ${entry.title}`} aria-haspopup="dialog" onClick={() => setConfirming(true)}>
          <Trash2 aria-hidden="true" className="h-4 w-4" />
          Delete
        </Button>
      </div>

      {isMedia && mediaShown ? (
        <div className="mt-4">
          <MediaPlayer key={playCount} recordingId={entry.id} type={entry.type as MediaType} title={entry.title} autoPlay={autoPlay} poster={entry.poster === true} />
        </div>
      ) : null}

      {isMedia ? null : <TimelineItemDialog entry={entry} open={viewing} onClose={() => setViewing(false)} />}
      <DeleteEntryDialog entry={entry} open={confirming} busy={remove.isPending} onConfirm={() => remove.mutate()} onCancel={() => setConfirming(false)} />
    </li>
  );
}
