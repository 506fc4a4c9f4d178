import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Check, RotateCcw, Save, Trash2 } from 'lucide-react';
import {
  canUseFeature, FINAL_MESSAGES_MAX, MediaMessages, PLANS, RECORDING_TITLE_MAX, tierIncludes, validateRecordingTitle, type MediaType, type Recording,
} from '@lv/contracts';
import { deleteRecording, fetchRecordings, mediaKeys, saveRecording } from '../../api/media.js';
import { ApiError } from '../../api/client.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { MediaPlayer } from '../../components/media/MediaPlayer.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Input, Label } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { ConfirmDeleteDialog, ModalFrame } from '../../components/ui/modal.js';
import { Spinner } from '../../components/ui/spinner.js';
import { cn } from '../../lib/cn.js';
import { useUnsavedChanges } from '../../shell/UnsavedChangesProvider.js';
import { formatTimer, permissionHint, PERMISSION_TOAST } from '../record/recorder-logic.js';
import { LivePreview, MediaTypeToggle, PermissionAlert, RecorderControls, RecordingPreview } from '../record/recorder-controls.js';
import { useRecorder, type RecorderStatus } from '../record/use-recorder.js';
import { formatDateTime } from '../../lib/dates.js';

const STATUS_LABEL: Record<RecorderStatus | 'saved', string> = { idle: 'Ready', starting: 'Starting…', recording: 'Recording', paused: 'Paused', stopped: 'Stopped', saved: 'Saved' };

/**
 * Final messages (spec 02, sections 4 to 9): a recorder that goes idle, recording, paused (resume),
 * stopped (preview) and saved. A message is saved in the vault (vault-media's final messages, not this
 * browser), refused as a duplicate when the same recording (by SHA-256) is already there, and is for
 * the Pro and Legacy plans: anyone else who starts one is shown the plans instead.
 */
export function FinalMessages() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const allowed = canUseFeature(user, 'final-messages');
  const recorder = useRecorder();
  const { setRecordingActive, checkNow } = useUnsavedChanges();
  const [type, setType] = useState<MediaType>('video');
  const [title, setTitle] = useState('');
  const [justSaved, setJustSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const [plansOpen, setPlansOpen] = useState(false);
  const [permissionProblem, setPermissionProblem] = useState<MediaType | null>(null);
  const titleId = useId();
  const active = recorder.status === 'recording' || recorder.status === 'paused' || recorder.status === 'starting';
  const status = justSaved && recorder.status === 'idle' ? 'saved' : recorder.status;

  useEffect(() => {
    setRecordingActive(active);
  }, [active, setRecordingActive]);
  useEffect(() => () => setRecordingActive(false), [setRecordingActive]);

  const start = useCallback(async () => {
    if (!allowed) {
      setPlansOpen(true);
      return;
    }
    setPermissionProblem(null);
    setJustSaved(false);
    const failure = await recorder.start(type);
    if (!failure) return;
    if (failure.kind === 'permission') {
      setPermissionProblem(type);
      toast.error(PERMISSION_TOAST.title, { description: permissionHint(type) });
    } else {
      console.warn('Recorder could not start', failure.message);
      toast.error('Failed to start recording');
    }
  }, [allowed, recorder, type]);

  const recordAgain = () => {
    recorder.reset();
    window.setTimeout(checkNow, 0);
  };

  const save = async () => {
    const recording = recorder.recording;
    if (!recording) return;
    const { title: cleanTitle, error } = validateRecordingTitle(title);
    if (error) {
      toast.error(MediaMessages.missingInfoTitle, { description: error });
      return;
    }
    setSaving(true);
    try {
      await saveRecording({ type: recording.type, title: cleanTitle, blob: recording.blob, collection: 'final-messages' });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'DUPLICATE_MEDIA') toast.error(MediaMessages.duplicate);
      else if (err instanceof ApiError && err.code === 'UPGRADE_REQUIRED') setPlansOpen(true);
      else if (err instanceof ApiError && err.code === 'PAYLOAD_TOO_LARGE') toast.error('Upload Error', { description: err.message });
      else {
        console.warn('Final message upload failed', err);
        toast.error('Upload failed.');
      }
      return;
    } finally {
      setSaving(false);
    }
    recorder.reset();
    setTitle('');
    setJustSaved(true);
    window.setTimeout(checkNow, 0);
    toast.success('Final message saved', { description: 'It is kept in your vault for the people you love.' });
    void queryClient.invalidateQueries({ queryKey: mediaKeys.finalMessages });
  };

  return (
    <div className="flex flex-col gap-6">
      <MediaTypeToggle label="Final message type" type={type} disabled={active || saving || recorder.status === 'stopped'} onChange={setType} />

      <p className="text-sm text-muted-foreground">
        <span data-testid="final-recorder-status">{STATUS_LABEL[status]}</span>
        {' · '}
        <span aria-label="Recording time" className="font-mono tabular-nums">{formatTimer(recorder.elapsed)}</span>
        {allowed ? null : ' · Final messages are part of the Pro and Legacy plans.'}
      </p>

      {recorder.liveStream ? <LivePreview stream={recorder.liveStream} /> : null}
      {recorder.recording && recorder.status === 'stopped' ? <RecordingPreview recording={recorder.recording} label="Final message preview" /> : null}
      <PermissionAlert type={permissionProblem} />

      <RecorderControls recorder={recorder} startLabel="Record Final Message" onStart={() => void start()} disabled={saving} />

      {recorder.status === 'stopped' ? (
        <div className="flex flex-col gap-3">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={titleId}>Final message title *</Label>
            <Input id={titleId} value={title} maxLength={RECORDING_TITLE_MAX} onChange={(e) => setTitle(e.target.value)} placeholder="e.g. For when you are grown" disabled={saving} />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => void save()} disabled={saving}>
              {saving ? <Spinner className="h-4 w-4" /> : <Save aria-hidden="true" className="h-4 w-4" />}
              {saving ? 'Saving…' : 'Save Final Message'}
            </Button>
            <Button variant="outline" onClick={recordAgain} disabled={saving}>
              <RotateCcw aria-hidden="true" className="h-4 w-4" />
              Record Again
            </Button>
          </div>
        </div>
      ) : null}

      <SavedFinalMessages />
      <PlanChoiceDialog open={plansOpen} onOpenChange={setPlansOpen} currentTier={user?.subscription_tier ?? 'none'} />
    </div>
  );
}

/** The saved final messages, newest first, each playable and removable by its owner. */
function SavedFinalMessages() {
  const queryClient = useQueryClient();
  const messages = useQuery({ queryKey: mediaKeys.finalMessages, queryFn: ({ signal }) => fetchRecordings(FINAL_MESSAGES_MAX, signal, 'final-messages') });
  const [playing, setPlaying] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Recording | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deleteRecording(id),
    onSuccess: () => {
      setToDelete(null);
      void queryClient.invalidateQueries({ queryKey: mediaKeys.finalMessages });
    },
    onError: () => toast.error('Failed to delete file.'),
  });

  if (messages.isPending) return <Spinner label="Loading final messages…" />;
  if (messages.isError) return <LoadFailed message="Failed to load final messages." onRetry={() => void messages.refetch()} />;
  if (messages.data.length === 0) return <p className="text-sm text-muted-foreground">No final messages yet.</p>;
  return (
    <>
      <ul aria-label="Saved final messages" className="flex flex-col gap-2">
        {messages.data.map((message) => (
          <li key={message.id} className="rounded-xl border border-border p-3">
            <div className="flex items-center gap-3">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{message.title}</p>
                <p className="text-xs text-muted-foreground">{message.type === 'video' ? 'Video' : 'Audio'} · {formatDateTime(message.created_at)}</p>
              </div>
              <Button variant="outline" size="sm" aria-expanded={playing === message.id} aria-label={`${playing === message.id ? 'Hide' : 'Play'} ${message.title}`} onClick={() => setPlaying((id) => (id === message.id ? null : message.id))}>
                {playing === message.id ? 'Hide' : 'Play'}
              </Button>
              <Button variant="ghost" size="icon" aria-label={`Delete ${message.title}`} onClick={() => setToDelete(message)}>
                <Trash2 aria-hidden="true" className="h-4 w-4" />
              </Button>
            </div>
            {playing === message.id ? (
              <div className="mt-3">
                <MediaPlayer recordingId={message.id} type={message.type} title={message.title} autoPlay />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <ConfirmDeleteDialog
        open={toDelete !== null}
        onClose={() => setToDelete(null)}
        title="Delete this final message?"
        description={toDelete ? `"${toDelete.title}" and its recording will be removed from your vault.` : ''}
        pending={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete.id)}
      />
    </>
  );
}

/** The plan choice: final messages come with Pro and Legacy; each plan goes to its checkout. */
export function PlanChoiceDialog({ open, onOpenChange, currentTier }: { open: boolean; onOpenChange: (open: boolean) => void; currentTier: string }) {
  return (
    <ModalFrame open={open} onOpenChange={onOpenChange} title="Choose your plan" description={MediaMessages.finalMessagesPlanRequired} widthClass="max-w-3xl">
      <ul aria-label="Plans" className="grid gap-3 sm:grid-cols-3">
        {PLANS.map((plan) => {
          const current = plan.tier === currentTier;
          const includesFinalMessages = tierIncludes(plan.tier, 'final-messages');
          return (
            <li key={plan.id} className={cn('flex flex-col gap-3 rounded-xl border p-4', includesFinalMessages ? 'border-primary/40' : 'border-border')}>
              <div>
                <h3 className="font-serif text-lg font-semibold">{plan.name}</h3>
                <p className="text-sm text-muted-foreground">
                  {plan.price} per {plan.period}
                </p>
              </div>
              <ul className="flex flex-1 flex-col gap-1 text-sm">
                {plan.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-primary" />
                    {feature}
                  </li>
                ))}
              </ul>
              {current ? (
                <p className="text-sm font-medium">Your plan</p>
              ) : (
                <Link to={`/checkout?plan=${plan.id}`} className={buttonClasses({ variant: includesFinalMessages ? 'primary' : 'outline' })} aria-label={`Choose ${plan.name}`}>
                  Choose {plan.name}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </ModalFrame>
  );
}
