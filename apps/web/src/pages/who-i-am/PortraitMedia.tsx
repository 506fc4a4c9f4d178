import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Pencil, Trash2, Upload, UserRound } from 'lucide-react';
import { MediaMessages, RECORDING_TITLE_MAX, uploadedKindOf, validateRecordingTitle, type MediaCollection, type Recording } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import { deleteRecording, fetchRecordings, mediaKeys, retitleRecording, saveRecording } from '../../api/media.js';
import { MediaPlayer } from '../../components/media/MediaPlayer.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { ConfirmDeleteDialog } from '../../components/ui/modal.js';
import { Spinner } from '../../components/ui/spinner.js';

const PERSONAL_MEDIA_MAX = 100;
const ACCEPTED_FILES = 'image/*,video/*,audio/*';
const FILE_INPUT_CLASS = 'text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-primary file:px-3 file:py-2 file:text-primary-foreground';

/** Saves a chosen file into a Who I Am collection; says why when it cannot ("Upload failed."). */
async function uploadFile(file: File, title: string, collection: MediaCollection): Promise<Recording | null> {
  const kind = uploadedKindOf(file.type);
  if (!kind || (collection === 'who-i-am-photo' && kind.type !== 'image')) {
    toast.error(MediaMessages.uploadFailed, { description: collection === 'who-i-am-photo' ? MediaMessages.photoMustBeImage : MediaMessages.unsupportedFile });
    return null;
  }
  try {
    return await saveRecording({ type: kind.type, title, blob: file, collection, contentType: kind.contentType });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'DUPLICATE_MEDIA') toast.error(MediaMessages.duplicate);
    else toast.error(MediaMessages.uploadFailed, { description: errorMessage(error, 'Please try again.') });
    return null;
  }
}

/**
 * The profile photo (Who I Am): one picture, replaced by the next one chosen (the old one is removed
 * once the new one is safely kept). Kept in the vault, shown to the owner through a signed link.
 */
export function ProfilePhoto() {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [uploading, setUploading] = useState(false);
  const photo = useQuery({ queryKey: mediaKeys.portraitPhoto, queryFn: ({ signal }) => fetchRecordings(1, signal, 'who-i-am-photo') });

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploading(true);
    const saved = await uploadFile(file, 'Profile photo', 'who-i-am-photo');
    setUploading(false);
    if (!saved) return;
    toast.success('Profile photo saved');
    await queryClient.invalidateQueries({ queryKey: mediaKeys.portraitPhoto });
  };

  const current = photo.data?.[0];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Photo</CardTitle>
        <CardDescription>A picture of you. Choosing a new one replaces it.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
        <div className="w-40 shrink-0">
          {photo.isPending ? (
            <Spinner label="Loading your photo…" />
          ) : photo.isError ? (
            <LoadFailed message="Could not load your photo." onRetry={() => void photo.refetch()} />
          ) : current ? (
            <MediaPlayer key={current.id} recordingId={current.id} type="image" title="Your profile photo" />
          ) : (
            <div className="grid aspect-square w-40 place-items-center rounded-xl bg-muted text-muted-foreground">
              <UserRound aria-hidden="true" className="h-12 w-12" />
              <span className="sr-only">No profile photo yet.</span>
            </div>
          )}
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={inputId}>Profile photo</Label>
          <input id={inputId} type="file" accept="image/*" disabled={uploading} onChange={(e) => void choose(e)} className={FILE_INPUT_CLASS} />
          {uploading ? <Spinner label="Uploading your photo…" /> : null}
        </div>
      </CardContent>
    </Card>
  );
}

/** Personal Media (Who I Am): images, videos and audio with titles: upload, retitle, delete. */
export function PersonalMedia() {
  const queryClient = useQueryClient();
  const ids = { title: useId(), file: useId() };
  const fileInput = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const media = useQuery({ queryKey: mediaKeys.portraitMedia, queryFn: ({ signal }) => fetchRecordings(PERSONAL_MEDIA_MAX, signal, 'who-i-am') });

  const upload = async () => {
    const { title: cleanTitle, error } = validateRecordingTitle(title);
    if (error) {
      toast.error(MediaMessages.missingInfoTitle, { description: error });
      return;
    }
    if (!file) {
      toast.error(MediaMessages.missingInfoTitle, { description: 'Choose a file.' });
      return;
    }
    setUploading(true);
    const saved = await uploadFile(file, cleanTitle, 'who-i-am');
    setUploading(false);
    if (!saved) return;
    setTitle('');
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
    toast.success('Media uploaded');
    await queryClient.invalidateQueries({ queryKey: mediaKeys.portraitMedia });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Personal Media</CardTitle>
        <CardDescription>Photos, videos and recordings that show who you are, each with a title.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <div role="group" aria-label="Add personal media" className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.title}>Media title</Label>
            <Input id={ids.title} value={title} maxLength={RECORDING_TITLE_MAX} onChange={(e) => setTitle(e.target.value)} placeholder="e.g. Fishing with Grandad" disabled={uploading} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.file}>Media file</Label>
            <input ref={fileInput} id={ids.file} type="file" accept={ACCEPTED_FILES} disabled={uploading} onChange={(e) => setFile(e.target.files?.[0] ?? null)} className={FILE_INPUT_CLASS} />
          </div>
          <Button type="button" onClick={() => void upload()} disabled={uploading}>
            {uploading ? <Spinner className="h-4 w-4" /> : <Upload aria-hidden="true" className="h-4 w-4" />}
            {uploading ? 'Uploading…' : 'Upload'}
          </Button>
        </div>

        {media.isPending ? (
          <Spinner label="Loading your media…" />
        ) : media.isError ? (
          <LoadFailed message="Could not load your media." onRetry={() => void media.refetch()} />
        ) : media.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No personal media yet.</p>
        ) : (
          <ul aria-label="Personal media" className="grid gap-4 sm:grid-cols-2">
            {media.data.map((item) => (
              <PersonalMediaItem key={item.id} item={item} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function PersonalMediaItem({ item }: { item: Recording }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(item.title);
  const [confirming, setConfirming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: mediaKeys.portraitMedia });

  const retitle = useMutation({
    mutationFn: (title: string) => retitleRecording(item.id, title),
    onSuccess: () => {
      setEditing(false);
      void refresh();
    },
    onError: (error) => toast.error(MediaMessages.retitleFailed, { description: errorMessage(error, 'Please try again.') }),
  });
  const saveTitle = () => {
    const { title, error } = validateRecordingTitle(draft);
    if (error) toast.error(MediaMessages.retitleFailed, { description: error });
    else retitle.mutate(title);
  };
  const remove = useMutation({
    mutationFn: () => deleteRecording(item.id),
    onSuccess: () => {
      setConfirming(false);
      void refresh();
    },
    onError: () => toast.error(MediaMessages.deleteFailed),
  });

  return (
    <li aria-label={item.title} className="flex flex-col gap-3 rounded-xl border border-border p-3">
      <MediaPlayer recordingId={item.id} type={item.type} title={item.title} />
      {editing ? (
        <div className="flex flex-col gap-2">
          <Label htmlFor={inputId}>New title</Label>
          <Input id={inputId} value={draft} maxLength={RECORDING_TITLE_MAX} onChange={(e) => setDraft(e.target.value)} disabled={retitle.isPending} />
          <div className="flex gap-2">
            <Button size="sm" onClick={() => saveTitle()} disabled={retitle.isPending}>
              Save Title
            </Button>
            <Button size="sm" variant="outline" onClick={() => { setEditing(false); setDraft(item.title); }} disabled={retitle.isPending}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex items-center gap-2">
          <p className="min-w-0 flex-1 truncate font-medium">{item.title}</p>
          <Button variant="ghost" size="icon" aria-label={`Rename ${item.title}`} onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" className="h-4 w-4" />
          </Button>
          <Button variant="ghost" size="icon" aria-label={`Delete ${item.title}`} onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" className="h-4 w-4" />
          </Button>
        </div>
      )}
      <ConfirmDeleteDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Delete this item?"
        description={`"${item.title}" will be removed from your vault.`}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}
