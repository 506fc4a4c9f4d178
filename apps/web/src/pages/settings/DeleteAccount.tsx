import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AccountDeletionMessages, type AccountDeletionStatus } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import { accountDeletionKey, fetchAccountDeletion, keepAccount, requestAccountDeletion } from '../../api/account-deletion.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { ModalFrame } from '../../components/ui/modal.js';
import { Spinner } from '../../components/ui/spinner.js';
import { formatDateTime } from '../../lib/dates.js';

/**
 * Delete my account (/settings, danger zone): the owner types DELETE in a dialog (and gives his password
 * again when the last one is older than 10 minutes: the client's "Confirm it’s you"); the account is then
 * deleted 7 days later unless he presses "Keep my account" here or opens the e-mailed link.
 */
export function DeleteAccount() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: accountDeletionKey, queryFn: ({ signal }) => fetchAccountDeletion(signal) });
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<string | null>(null);
  const settle = (reply: AccountDeletionStatus) => {
    queryClient.setQueryData(accountDeletionKey, { ...reply, message: '' });
    setOutcome(reply.message);
  };
  const keep = useMutation({ mutationFn: keepAccount, onSuccess: settle });

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Delete my account</CardTitle>
        <CardDescription>
          Your letters, recordings, journal, access keys and trustees are erased for good, every key and session ends, and nothing can be brought back.
          You have 7 days to change your mind.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div role="status" aria-live="polite">{outcome ? <p className="text-sm font-medium">{outcome}</p> : null}</div>
        {status.isPending ? (
          <Spinner label="Loading…" />
        ) : status.isError ? (
          <LoadFailed message="Could not load whether your account is scheduled for deletion." onRetry={() => void status.refetch()} />
        ) : status.data.scheduled && status.data.dueAt ? (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="font-medium text-destructive">Your account is scheduled for deletion on {formatDateTime(status.data.dueAt)}.</p>
            <Button type="button" disabled={keep.isPending} aria-busy={keep.isPending || undefined} onClick={() => keep.mutate()}>
              {keep.isPending ? <Spinner className="h-4 w-4" /> : null}
              Keep my account
            </Button>
          </div>
        ) : (
          <div>
            <Button type="button" variant="destructive" onClick={() => { setOutcome(null); setOpen(true); }}>Delete my account</Button>
          </div>
        )}
        {keep.isError ? <p role="alert" className="text-sm text-destructive">{errorMessage(keep.error, 'Your account was not kept. Please try again.')}</p> : null}
        <DeleteAccountDialog open={open} onOpenChange={setOpen} onScheduled={(reply) => { settle(reply); setOpen(false); }} />
      </CardContent>
    </Card>
  );
}

function DeleteAccountDialog({ open, onOpenChange, onScheduled }: { open: boolean; onOpenChange: (open: boolean) => void; onScheduled: (reply: AccountDeletionStatus) => void }) {
  const inputId = useId();
  const problemId = useId();
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const schedule = useMutation({
    mutationFn: () => requestAccountDeletion({ confirmation: typed }),
    onSuccess: (reply) => { setTyped(''); setProblem(null); onScheduled(reply); },
    onError: (error) => setProblem(error instanceof ApiError && error.code === 'VALIDATION_FAILED' ? AccountDeletionMessages.confirmationWrong : errorMessage(error, 'Your account was not scheduled for deletion. Please try again.')),
  });
  const ready = typed.trim().toUpperCase() === AccountDeletionMessages.confirmationWord;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) {
      setProblem(AccountDeletionMessages.confirmationWrong);
      return;
    }
    if (!schedule.isPending) schedule.mutate();
  };

  return (
    <ModalFrame open={open} onOpenChange={onOpenChange} title="Delete your account?" description="It is deleted 7 days from now unless you keep it." widthClass="max-w-lg">
      <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          <li>We e-mail you the date and a link that keeps your account.</li>
          <li>Until then you can press “Keep my account” here in Settings.</li>
          <li>On that date everything you keep here is erased, and every access key, trustee and delivery ends.</li>
        </ul>
        <div className="flex flex-col gap-2">
          <Label htmlFor={inputId}>Type {AccountDeletionMessages.confirmationWord} to confirm</Label>
          <Input id={inputId} value={typed} autoComplete="off" aria-invalid={problem ? true : undefined} aria-describedby={problem ? problemId : undefined}
            onChange={(event) => { setTyped(event.target.value); setProblem(null); }} />
          {problem ? <p id={problemId} role="alert" className="text-sm text-destructive">{problem}</p> : null}
        </div>
        <div className="flex justify-end gap-3">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>Cancel</Button>
          <Button type="submit" variant="destructive" disabled={schedule.isPending} aria-busy={schedule.isPending || undefined}>
            {schedule.isPending ? <Spinner className="h-4 w-4" /> : null}
            Delete my account
          </Button>
        </div>
      </form>
    </ModalFrame>
  );
}
