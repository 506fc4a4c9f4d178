import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { INACTIVITY_PERIODS, INACTIVITY_WARNING_DAYS, InactivityMessages, type InactivityWatch as Watch } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { fetchInactivity, inactivityKeys, pauseInactivity, resumeInactivity, saveInactivity, sendTestInactivityWarning } from '../../api/if-im-not-there.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { Note } from '../../components/ui/note.js';
import { Label, Select } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';
import { formatDate } from '../../lib/dates.js';

const OFF = 'off';

/** The watch's state in plain words: off, paused, or when the warnings and the delivery are due. */
export function inactivityStatusText(watch: Watch): string {
  if (watch.period_days === null) return 'Off. A delivery starts only when your trustee reports it and our team confirms it.';
  if (watch.paused) return 'Paused. No warning is sent and no delivery starts until you resume the watch.';
  if (watch.lapse_at === null) {
    return `Your ${watch.period_days}-day period passed without a sign-in${watch.lapsed_at ? ` on ${formatDate(watch.lapsed_at)}` : ''} and your vault's delivery started. Signing in or checking in starts the watch again.`;
  }
  const [first, last] = watch.warnings_at;
  return `On. Counting from ${formatDate(watch.last_seen_at!)}: warnings by e-mail on ${formatDate(first!)} and ${formatDate(last!)}; delivery starts on ${formatDate(watch.lapse_at)} unless you sign in or check in.`;
}

/**
 * The inactivity trigger: the owner chooses how long without a sign-in (or check-in) starts the
 * delivery, off by default; pauses and resumes it. Kept by access-keys, shown as the server says.
 */
export function InactivityWatch() {
  const watch = useQuery({ queryKey: inactivityKeys.watch, queryFn: ({ signal }) => fetchInactivity(signal) });
  if (watch.isPending) return <Spinner label="Loading the inactivity watch…" />;
  if (watch.isError) return <LoadFailed message="Could not load the inactivity watch." onRetry={() => void watch.refetch()} />;
  return <WatchForm saved={watch.data} />;
}

function WatchForm({ saved }: { saved: Watch }) {
  const queryClient = useQueryClient();
  const ids = { period: useId(), heading: useId() };
  const [period, setPeriod] = useState<string>(saved.period_days === null ? OFF : String(saved.period_days));
  const changed = period !== (saved.period_days === null ? OFF : String(saved.period_days));
  const onSaved = (next: Watch) => {
    queryClient.setQueryData(inactivityKeys.watch, next);
    setPeriod(next.period_days === null ? OFF : String(next.period_days));
  };
  const save = useMutation({
    mutationFn: () => saveInactivity({ period_days: period === OFF ? null : (Number(period) as (typeof INACTIVITY_PERIODS)[number]) }),
    onSuccess: (next) => {
      onSaved(next);
      toast.success(next.period_days === null ? 'Inactivity watch turned off' : 'Inactivity period saved', { description: inactivityStatusText(next) });
    },
    onError: (error) => toast.error('Could not save the inactivity period', { description: errorMessage(error, 'Please try again.') }),
  });
  const pause = useMutation({
    mutationFn: () => (saved.paused ? resumeInactivity() : pauseInactivity()),
    onSuccess: (next) => {
      onSaved(next);
      toast.success(next.paused ? 'Inactivity watch paused' : 'Inactivity watch resumed');
    },
    onError: (error) => toast.error('Could not change the inactivity watch', { description: errorMessage(error, 'Please try again.') }),
  });
  const { user } = useAuth();
  const email = user?.email;
  // Warnings go to the owner's address and a lapse e-mails his contacts: access-keys turns a watch on only once that address is verified (EMAIL_NOT_VERIFIED).
  const unverified = user !== null && !user.emailVerified;
  const test = useMutation({
    mutationFn: sendTestInactivityWarning,
    onSuccess: () => toast.success('Test warning sent', { description: `Look for it at ${email ?? 'your e-mail address'}, and try its link.` }),
    onError: (error) => toast.error('Could not send a test warning', { description: errorMessage(error, 'Please try again.') }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <form aria-labelledby={ids.heading} noValidate onSubmit={submit} className="flex flex-col gap-3 rounded-xl border border-border p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={ids.heading} className="font-medium">
          If I stop signing in
        </h3>
        {saved.period_days !== null && saved.paused ? <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium">Paused</span> : null}
      </div>
      <p className="text-sm text-muted-foreground">
        Start the delivery when you have not signed in or checked in for the period you choose. You are e-mailed {INACTIVITY_WARNING_DAYS[0]} and {INACTIVITY_WARNING_DAYS[1]} days
        before, with an &quot;I&apos;m still here&quot; link; signing in counts too.
      </p>
      {unverified && saved.period_days === null ? (
        <Note>{InactivityMessages.verifyEmailFirst}</Note>
      ) : null}
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <Label htmlFor={ids.period}>Inactivity period</Label>
          <Select id={ids.period} value={period} onChange={(e) => setPeriod(e.target.value)}>
            <option value={OFF}>Off</option>
            {INACTIVITY_PERIODS.map((days) => (
              <option key={days} value={String(days)}>
                {days} days without a sign-in
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" disabled={save.isPending || !changed}>
          Save inactivity period
        </Button>
        {saved.period_days !== null ? (
          <Button type="button" variant="outline" disabled={pause.isPending} onClick={() => pause.mutate()}>
            {saved.paused ? 'Resume watch' : 'Pause watch'}
          </Button>
        ) : null}
        {saved.lapse_at !== null ? (
          <Button type="button" variant="ghost" disabled={test.isPending} onClick={() => test.mutate()}>
            Send a test warning
          </Button>
        ) : null}
      </div>
      <p role="status" aria-label="Inactivity watch status" className="text-sm">
        {inactivityStatusText(saved)}
      </p>
    </form>
  );
}
