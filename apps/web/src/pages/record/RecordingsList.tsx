import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Info, Mic, RefreshCw, ShieldAlert, Video } from 'lucide-react';
import { MediaMessages, RECORDINGS_LIST_LIMIT, type Recording } from '@lv/contracts';
import { fetchRecordings, mediaKeys } from '../../api/media.js';
import { formatDuration } from '../../components/media/duration.js';
import { MediaPlayer } from '../../components/media/MediaPlayer.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Spinner } from '../../components/ui/spinner.js';
import { formatBytes } from './recorder-logic.js';
import { formatDateTime } from '../../lib/dates.js';


function RecordingRow({ recording }: { recording: Recording }) {
  const [open, setOpen] = useState(false);
  const Icon = recording.type === 'video' ? Video : Mic;
  return (
    <li className="rounded-xl border border-border p-3" data-testid="recording-row">
      <div className="flex items-center gap-3">
        <span aria-hidden="true" className="grid h-9 w-9 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
          <Icon className="h-4 w-4" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium">{recording.title}</p>
          <p className="text-xs text-muted-foreground">
            {recording.type === 'video' ? 'Video' : 'Audio'} · {formatDateTime(recording.created_at)}
            {typeof recording.duration_seconds === 'number' ? ` · ${formatDuration(recording.duration_seconds)}` : ''} · {formatBytes(recording.size)}
          </p>
          {recording.integrity === 'mismatch' ? (
            <p className="mt-1 flex items-center gap-1.5 text-xs text-destructive" role="note">
              <ShieldAlert aria-hidden="true" className="h-3.5 w-3.5" />
              {MediaMessages.integrityMismatch}
            </p>
          ) : null}
          {recording.transcode_status === 'failed' ? (
            <p className="mt-1 flex items-center gap-1.5 text-xs text-muted-foreground" role="note">
              <Info aria-hidden="true" className="h-3.5 w-3.5 shrink-0" />
              {MediaMessages.transcodeFailed}
            </p>
          ) : null}
        </div>
        <Button variant="outline" size="sm" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
          {open ? 'Hide' : 'Play'}
        </Button>
      </div>
      {open ? (
        <div className="mt-3">
          <MediaPlayer recordingId={recording.id} type={recording.type} title={recording.title} poster={recording.poster === true} autoPlay />
        </div>
      ) : null}
    </li>
  );
}

/** "Your Recordings": the latest 10, newest first, with a refresh button (spec, sections 2 and 7). */
export function RecordingsList() {
  const recordings = useQuery({ queryKey: mediaKeys.recordings, queryFn: ({ signal }) => fetchRecordings(RECORDINGS_LIST_LIMIT, signal) });
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Your Recordings</CardTitle>
        <Button variant="ghost" size="icon" aria-label="Refresh recordings" onClick={() => void recordings.refetch()} disabled={recordings.isFetching}>
          <RefreshCw aria-hidden="true" className={recordings.isFetching ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} />
        </Button>
      </CardHeader>
      <CardContent>
        {recordings.isPending ? (
          <Spinner label="Loading recordings" />
        ) : recordings.isError || recordings.data.length === 0 ? (
          // The spec logs a failed load and shows the list empty.
          <p className="text-sm text-muted-foreground">No recordings found.</p>
        ) : (
          <ul className="flex flex-col gap-2" aria-label="Your Recordings">
            {recordings.data.map((recording) => (
              <RecordingRow key={recording.id} recording={recording} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
