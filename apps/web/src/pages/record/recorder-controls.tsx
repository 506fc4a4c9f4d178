import { useEffect, useRef } from 'react';
import { Circle, Mic, Pause, Play, Square, Video } from 'lucide-react';
import type { MediaType } from '@lv/contracts';
import { Button } from '../../components/ui/button.js';
import { cn } from '../../lib/cn.js';
import { permissionHint } from './recorder-logic.js';
import type { RecordedMedia, Recorder } from './use-recorder.js';

/** The Video/Audio choice of a recorder, as a group of two pressed-state buttons named `label`. */
export function MediaTypeToggle({ label, type, disabled, onChange }: { label: string; type: MediaType; disabled: boolean; onChange: (type: MediaType) => void }) {
  return (
    <div role="group" aria-label={label} className="inline-flex self-start rounded-xl border border-border bg-card p-1">
      {(['video', 'audio'] as const).map((option) => {
        const Icon = option === 'video' ? Video : Mic;
        return (
          <button
            key={option}
            type="button"
            aria-pressed={type === option}
            disabled={disabled}
            onClick={() => onChange(option)}
            className={cn('inline-flex h-10 items-center gap-2 rounded-lg px-4 text-sm font-medium transition-colors disabled:opacity-60', type === option ? 'bg-primary text-primary-foreground' : 'hover:bg-muted')}
          >
            <Icon aria-hidden="true" className="h-4 w-4" />
            {option === 'video' ? 'Video' : 'Audio'}
          </button>
        );
      })}
    </div>
  );
}

/** The camera's live picture while a video is recorded. */
export function LivePreview({ stream }: { stream: MediaStream }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.srcObject = stream;
  }, [stream]);
  return <video ref={ref} autoPlay muted playsInline aria-label="Camera preview" className="aspect-video w-full rounded-xl bg-black object-cover" />;
}

/** Start (named `startLabel`), then Pause or Resume, and Stop, as the recorder's state allows. */
export function RecorderControls({ recorder, startLabel, onStart, disabled }: { recorder: Recorder; startLabel: string; onStart: () => void; disabled: boolean }) {
  return (
    <div className="flex flex-wrap gap-2">
      {recorder.status === 'idle' || recorder.status === 'starting' ? (
        <Button onClick={onStart} disabled={recorder.status === 'starting' || disabled}>
          <Circle aria-hidden="true" className="h-4 w-4 fill-current" />
          {startLabel}
        </Button>
      ) : null}
      {recorder.status === 'recording' ? (
        <Button variant="secondary" onClick={recorder.pause}>
          <Pause aria-hidden="true" className="h-4 w-4" />
          Pause
        </Button>
      ) : null}
      {recorder.status === 'paused' ? (
        <Button variant="secondary" onClick={recorder.resume}>
          <Play aria-hidden="true" className="h-4 w-4" />
          Resume
        </Button>
      ) : null}
      {recorder.status === 'recording' || recorder.status === 'paused' ? (
        <Button variant="destructive" onClick={() => void recorder.stop()}>
          <Square aria-hidden="true" className="h-4 w-4 fill-current" />
          Stop
        </Button>
      ) : null}
    </div>
  );
}

/** A stopped recording, played back before it is saved. */
export function RecordingPreview({ recording, label }: { recording: RecordedMedia; label: string }) {
  return recording.type === 'video' ? (
    <video src={recording.url} controls playsInline aria-label={label} className="aspect-video w-full rounded-xl bg-black" data-testid="recording-preview" />
  ) : (
    <audio src={recording.url} controls aria-label={label} className="w-full" data-testid="recording-preview" />
  );
}

/** What to do when the browser was refused the camera or microphone (spec: 'Permission Required: ...'). */
export function PermissionAlert({ type }: { type: MediaType | null }) {
  if (!type) return null;
  return (
    <p role="alert" className="rounded-lg bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {permissionHint(type)}
    </p>
  );
}
