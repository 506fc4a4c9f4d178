import { useCallback, useEffect, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ArrowLeft, Mic, RotateCcw, Save } from 'lucide-react';
import {
  AFTER_SAVE_REDIRECT_MS, canUseFeature, MediaMessages, RECORDING_TITLE_MAX, recordingFeature, SAVE_NOTICE_MS, validateRecordingTitle, type MediaType,
} from '@lv/contracts';
import { fingerprintOf, mediaKeys, saveRecording, type UploadProgress } from '../../api/media.js';
import { ApiError } from '../../api/client.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { UpgradePrompt } from '../../components/media/UpgradePrompt.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { cn } from '../../lib/cn.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { useUnsavedChanges } from '../../shell/UnsavedChangesProvider.js';
import { SAVE_DRAFTS_EVENT } from '../../shell/use-sign-out.js';
import { discardDraft, loadDraft, saveDraft, writeDraftInfo } from '../../drafts/recording-draft.js';
import { formatBytes, formatTimer, PERMISSION_TOAST } from './recorder-logic.js';
import { LivePreview, MediaTypeToggle, PermissionAlert, RecorderControls, RecordingPreview } from './recorder-controls.js';
import { RecordingsList } from './RecordingsList.js';
import { useRecorder } from './use-recorder.js';

type SavePhase = { kind: 'idle' } | { kind: 'hashing' } | { kind: 'uploading'; progress: UploadProgress };

/**
 * Record Messages (/record) and its variant /record-media (spec, sections 2, 4, 5, 8): a Video/Audio
 * toggle, the recorder (record, pause/resume, stop with a preview, Save or Record Again), the title
 * (required, at most 100 characters) and, on /record, "Your Recordings".
 */
export function RecordPage({ variant = 'record' }: { variant?: 'record' | 'record-media' }) {
  usePageTitle(variant === 'record' ? 'Record Messages' : 'Record a Message');
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [type, setType] = useState<MediaType>(params.get('type') === 'audio' ? 'audio' : 'video');
  const [title, setTitle] = useState('');
  const [permissionProblem, setPermissionProblem] = useState<MediaType | null>(null);
  const [phase, setPhase] = useState<SavePhase>({ kind: 'idle' });
  const [savedNotice, setSavedNotice] = useState(false);
  const recorder = useRecorder();
  const { setRecordingActive, checkNow } = useUnsavedChanges();
  const titleId = useId();
  const saving = phase.kind !== 'idle';
  // The plan is checked before anything is recorded (the plans table: Pro adds video and audio saving).
  const gated = !canUseFeature(user, recordingFeature(type));
  // What a save promises: the timeline only when the plan includes it.
  const withTimeline = canUseFeature(user, 'timeline');
  const active = recorder.status === 'recording' || recorder.status === 'paused' || recorder.status === 'starting';

  // A recording in progress counts as unsaved work (the shell's indicator and sign-out dialog).
  useEffect(() => {
    setRecordingActive(active);
  }, [active, setRecordingActive]);
  useEffect(() => () => setRecordingActive(false), [setRecordingActive]);

  // An unsaved recording from before (a reload, or "Save Drafts & Sign Out") comes back.
  useEffect(() => {
    let cancelled = false;
    if (!user) return;
    void loadDraft(user.id).then((kept) => {
      if (cancelled || !kept) return;
      setType(kept.draft.type);
      setTitle(kept.draft.title);
      if (kept.blob) {
        recorder.restore(kept.blob, kept.draft.type, kept.draft.durationSeconds);
        toast.info('Draft restored', { description: 'Your unsaved recording is back. Save it or record again.' });
      } else {
        toast.info('Draft found', { description: 'The title of your unsaved recording is back, but the recording itself could not be kept in this browser.' });
      }
    });
    return () => { cancelled = true; };
    // Once per visit of the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A stopped, unsaved recording is kept as the unsaved_draft, bound to its owner; its title follows what is typed.
  const recording = recorder.recording;
  const owner = user?.id;
  // Fingerprint the recording while its title is typed, so Save asks about duplicates at once (an
  // error here is met again, and shown, when Save asks for the fingerprint).
  useEffect(() => {
    if (recording) fingerprintOf(recording.blob).catch(() => undefined);
  }, [recording]);
  useEffect(() => {
    if (!recording || !owner) return;
    void saveDraft({ type: recording.type, title, durationSeconds: recording.durationSeconds, mimeType: recording.blob.type, size: recording.blob.size, savedAt: new Date().toISOString(), owner }, recording.blob);
    // The blob is stored once per recording; title changes only rewrite the description.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [recording]);
  useEffect(() => {
    if (!recording || !owner) return;
    writeDraftInfo({ type: recording.type, title, durationSeconds: recording.durationSeconds, mimeType: recording.blob.type, size: recording.blob.size, savedAt: new Date().toISOString(), owner });
  }, [title, recording, owner]);

  // "Save Drafts & Sign Out": a recording still running is stopped, which keeps it as the draft.
  const stop = recorder.stop;
  useEffect(() => {
    const onSaveDrafts = () => {
      if (active) void stop();
    };
    window.addEventListener(SAVE_DRAFTS_EVENT, onSaveDrafts);
    return () => window.removeEventListener(SAVE_DRAFTS_EVENT, onSaveDrafts);
  }, [active, stop]);

  useEffect(() => {
    if (!savedNotice) return;
    const timer = window.setTimeout(() => setSavedNotice(false), SAVE_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [savedNotice]);

  const startRecording = useCallback(async () => {
    setPermissionProblem(null);
    setSavedNotice(false);
    const failure = await recorder.start(type);
    if (!failure) return;
    if (failure.kind === 'permission') {
      setPermissionProblem(type);
      toast.error(PERMISSION_TOAST.title, { description: PERMISSION_TOAST.description });
    } else {
      console.warn('Recorder could not start', failure.message);
      toast.error('Failed to start recording');
    }
  }, [recorder, type]);

  const recordAgain = useCallback(() => {
    recorder.reset();
    void discardDraft().then(checkNow);
  }, [recorder, checkNow]);

  const chooseType = (next: MediaType) => {
    if (next === type || active || saving) return;
    if (recorder.recording) recordAgain();
    setPermissionProblem(null);
    setType(next);
  };

  const save = async () => {
    const { title: cleanTitle, error } = validateRecordingTitle(title);
    if (!recording || error === MediaMessages.missingInfo) {
      toast.error(MediaMessages.missingInfoTitle, { description: MediaMessages.missingInfo });
      return;
    }
    if (error) {
      toast.error(MediaMessages.missingInfoTitle, { description: error });
      return;
    }
    try {
      await saveRecording({ type: recording.type, title: cleanTitle, blob: recording.blob }, (next, progress) =>
        setPhase(next === 'hashing' ? { kind: 'hashing' } : { kind: 'uploading', progress: progress ?? { loaded: 0, total: recording.blob.size } }));
    } catch (err) {
      setPhase({ kind: 'idle' });
      if (err instanceof ApiError && err.code === 'DUPLICATE_MEDIA') toast.error(MediaMessages.duplicate);
      else if (err instanceof ApiError && (err.code === 'PAYLOAD_TOO_LARGE' || err.code === 'UPGRADE_REQUIRED')) toast.error('Upload Error', { description: err.message });
      else {
        console.warn('Recording upload failed', err);
        toast.error('Upload Error', { description: 'Try again.' });
      }
      return;
    }
    setPhase({ kind: 'idle' });
    // After a save: blob, timer and title are reset, the draft is gone.
    recorder.reset();
    setTitle('');
    await discardDraft();
    window.setTimeout(checkNow, 0);
    setSavedNotice(true);
    toast.success('Recording Saved', { description: 'Successfully uploaded.' });
    void queryClient.invalidateQueries({ queryKey: mediaKeys.all });
    if (variant === 'record-media') window.setTimeout(() => void navigate(withTimeline ? '/timeline' : '/record'), AFTER_SAVE_REDIRECT_MS);
  };

  const progressPercent = phase.kind === 'uploading' && phase.progress.total > 0 ? Math.min(100, Math.round((phase.progress.loaded / phase.progress.total) * 100)) : 0;
  const statusLabel: Record<typeof recorder.status, string> = { idle: 'Ready', starting: 'Starting…', recording: 'Recording', paused: 'Paused', stopped: 'Recorded' };

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-col gap-2">
        {variant === 'record-media' ? (
          <Button variant="ghost" size="sm" className="self-start" onClick={() => void navigate(-1)}>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" />
            Back
          </Button>
        ) : null}
        <h1 className="font-serif text-4xl font-semibold tracking-tight">{variant === 'record' ? 'Record Messages' : 'Record a Message'}</h1>
        <p className="text-muted-foreground">Say what you want them to hear, in your own voice. Only you can see it until you choose to share.</p>
      </header>

      <MediaTypeToggle label="Recording type" type={type} disabled={active || saving} onChange={chooseType} />

      {savedNotice ? (
        <div role="status" className="rounded-2xl border border-accent-foreground/20 bg-accent p-5 text-accent-foreground">
          <p className="font-semibold">✅ Success!</p>
          <p>{withTimeline ? MediaMessages.savedToVaultAndTimeline : MediaMessages.savedToVault}</p>
        </div>
      ) : null}

      {gated ? (
        <UpgradePrompt feature={recordingFeature(type)} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{type === 'video' ? 'Video message' : 'Audio message'}</CardTitle>
            <CardDescription>
              <span data-testid="recorder-status">{statusLabel[recorder.status]}</span>
              {' · '}
              <span data-testid="recorder-timer" aria-label="Recording time" className="font-mono tabular-nums">{formatTimer(recorder.elapsed)}</span>
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            {recorder.liveStream ? <LivePreview stream={recorder.liveStream} /> : null}
            {!recorder.liveStream && active ? (
              <div className="grid h-32 place-items-center rounded-xl bg-muted" aria-hidden="true">
                <Mic className={cn('h-10 w-10 text-primary', recorder.status === 'recording' && 'animate-pulse')} />
              </div>
            ) : null}
            {recording && recorder.status === 'stopped' ? <RecordingPreview recording={recording} label="Recording preview" /> : null}
            {recording ? <p className="text-xs text-muted-foreground">{formatBytes(recording.blob.size)} recorded</p> : null}

            <PermissionAlert type={permissionProblem} />

            <RecorderControls recorder={recorder} startLabel="Start Recording" onStart={() => void startRecording()} disabled={saving} />

            <div className="flex flex-col gap-1.5">
              <Label htmlFor={titleId}>Title *</Label>
              <Input id={titleId} value={title} maxLength={RECORDING_TITLE_MAX} onChange={(e) => setTitle(e.target.value)} placeholder="e.g. For your first day at school" disabled={saving} aria-describedby={`${titleId}-count`} />
              <span id={`${titleId}-count`} className="self-end text-xs text-muted-foreground">
                {title.length}/{RECORDING_TITLE_MAX}
              </span>
            </div>

            {phase.kind !== 'idle' ? (
              <div className="flex flex-col gap-1.5">
                <div role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progressPercent} className="h-2 w-full overflow-hidden rounded-full bg-muted">
                  <div className="h-full bg-primary transition-[width]" style={{ width: `${progressPercent}%` }} />
                </div>
                <span className="text-xs text-muted-foreground">{phase.kind === 'hashing' ? 'Preparing…' : `Uploading… ${progressPercent}%`}</span>
              </div>
            ) : null}

            {recorder.status === 'stopped' ? (
              <div className="flex flex-wrap gap-2">
                <Button onClick={() => void save()} disabled={saving}>
                  <Save aria-hidden="true" className="h-4 w-4" />
                  {saving ? 'Saving…' : 'Save'}
                </Button>
                <Button variant="outline" onClick={recordAgain} disabled={saving}>
                  <RotateCcw aria-hidden="true" className="h-4 w-4" />
                  Record Again
                </Button>
              </div>
            ) : recorder.status === 'idle' ? (
              <Button variant="outline" className="self-start" onClick={() => void save()} disabled={saving}>
                <Save aria-hidden="true" className="h-4 w-4" />
                Save
              </Button>
            ) : null}
          </CardContent>
        </Card>
      )}

      {variant === 'record' ? <RecordingsList /> : null}
    </div>
  );
}
