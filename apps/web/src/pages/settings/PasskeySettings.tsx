import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { KeyRound } from 'lucide-react';
import { PasskeyMessages, type PasskeyView } from '@lv/contracts';
import { ApiError } from '../../api/client.js';
import { addPasskey, fetchPasskeys, passkeyErrorMessage, passkeyKeys, passkeysSupported, removePasskey, renamePasskey } from '../../api/passkeys.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';
import { formatDateTime } from '../../lib/dates.js';

/** The name field's own error (VALIDATION_FAILED on `name`), else the answer's words. */
const nameError = (error: unknown, fallback: string) => (error instanceof ApiError && error.body.fields?.name ? error.body.fields.name : passkeyErrorMessage(error, fallback));

/** A passkey's row: its name, when added and last used; rename in place; remove (sudo mode). */
function PasskeyRow({ passkey, onChanged }: { passkey: PasskeyView; onChanged: () => Promise<unknown> }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | null>(null);
  const ids = { name: useId(), error: useId() };
  const rename = useMutation({
    mutationFn: () => renamePasskey(passkey.id, name),
    onSuccess: async () => {
      toast.success(PasskeyMessages.renamed);
      setRenaming(false);
      await onChanged();
    },
    onError: (failure) => setError(nameError(failure, 'The passkey was not renamed.')),
  });
  const remove = useMutation({
    mutationFn: () => removePasskey(passkey.id),
    onSuccess: async () => {
      toast.success(PasskeyMessages.removed);
      await onChanged();
    },
    onError: (failure) => toast.error('The passkey was not removed.', { description: passkeyErrorMessage(failure, 'Please try again.') }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(PasskeyMessages.nameRequired);
    setError(null);
    rename.mutate();
  };

  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      {renaming ? (
        <form noValidate onSubmit={submit} className="flex flex-1 flex-col gap-2">
          <Label htmlFor={ids.name}>New name for {passkey.name}</Label>
          <div className="flex flex-wrap gap-2">
            <Input id={ids.name} value={name} maxLength={60} autoFocus className="min-w-0 flex-1" onChange={(e) => setName(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? ids.error : undefined} />
            <Button type="submit" size="sm" disabled={rename.isPending}>Save</Button>
            <Button type="button" size="sm" variant="outline" onClick={() => { setRenaming(false); setName(passkey.name); setError(null); }}>Cancel</Button>
          </div>
          {error ? <p id={ids.error} role="alert" className="text-sm text-destructive">{error}</p> : null}
        </form>
      ) : (
        <>
          <div className="flex items-start gap-3">
            <KeyRound aria-hidden="true" className="mt-0.5 h-5 w-5 text-muted-foreground" />
            <div>
              <p className="font-medium break-words">{passkey.name}</p>
              <p className="text-sm text-muted-foreground">
                Added {formatDateTime(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${formatDateTime(passkey.lastUsedAt)}` : 'Never used'}
              </p>
            </div>
          </div>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" aria-label={`Rename passkey ${passkey.name}`} onClick={() => setRenaming(true)}>Rename</Button>
            <Button variant="outline" size="sm" disabled={remove.isPending} aria-label={`Remove passkey ${passkey.name}`} onClick={() => remove.mutate()}>Remove</Button>
          </div>
        </>
      )}
    </li>
  );
}

/**
 * Passkeys (/settings): sign in with the phone's or computer's screen lock instead of the password, and
 * use one as the second step when two-step sign-in is on. Adding and removing one need sudo mode (the
 * API client asks "Confirm it's you" when the last proof is old).
 */
export function PasskeySettings() {
  const queryClient = useQueryClient();
  const passkeys = useQuery({ queryKey: passkeyKeys.list, queryFn: ({ signal }) => fetchPasskeys(signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: passkeyKeys.list });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = { name: useId(), error: useId(), title: useId() };
  const add = useMutation({
    mutationFn: () => addPasskey(name.trim()),
    onSuccess: async () => {
      toast.success(PasskeyMessages.added);
      setName('');
      await refresh();
    },
    onError: (failure) => setError(nameError(failure, PasskeyMessages.refused)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    if (!name.trim()) return setError(PasskeyMessages.nameRequired);
    setError(null);
    add.mutate();
  };

  // A passkey's name half typed is not work to warn about on leaving (as the two-step card's code).
  return (
    <Card data-unsaved-ignore="">
      <CardHeader>
        <CardTitle id={ids.title}>Passkeys</CardTitle>
        <CardDescription>Sign in with your phone’s or computer’s screen lock (fingerprint, face or PIN) instead of your password. When two-step sign-in is on, a passkey also works as the second step.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {passkeys.isPending ? (
          <Spinner label="Loading your passkeys…" />
        ) : passkeys.isError ? (
          <LoadFailed message="Could not load your passkeys." onRetry={() => void passkeys.refetch()} />
        ) : passkeys.data.passkeys.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have no passkeys yet.</p>
        ) : (
          <ul aria-labelledby={ids.title} className="flex flex-col divide-y divide-border">
            {passkeys.data.passkeys.map((passkey) => <PasskeyRow key={passkey.id} passkey={passkey} onChanged={refresh} />)}
          </ul>
        )}
        {passkeysSupported() ? (
          <form noValidate onSubmit={submit} className="flex flex-col gap-2">
            <Label htmlFor={ids.name}>Passkey name</Label>
            <div className="flex flex-wrap gap-2">
              <Input id={ids.name} value={name} maxLength={60} placeholder="My laptop" className="min-w-0 flex-1" onChange={(e) => setName(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? ids.error : undefined} />
              <Button type="submit" disabled={add.isPending} aria-busy={add.isPending || undefined}>
                {add.isPending ? <Spinner className="h-4 w-4" /> : null}
                Add a passkey
              </Button>
            </div>
            {error ? <p id={ids.error} role="alert" className="text-sm text-destructive">{error}</p> : null}
          </form>
        ) : (
          <p className="text-sm text-muted-foreground">{PasskeyMessages.unsupported}</p>
        )}
      </CardContent>
    </Card>
  );
}
