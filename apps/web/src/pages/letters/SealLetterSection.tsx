import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Lock, MailCheck } from 'lucide-react';
import { MILESTONE_EMAIL_MAX, MILESTONE_NAME_MAX, MilestoneMessages, type Letter, type LetterMilestone } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { Note } from '../../components/ui/note.js';
import { Input, Label } from '../../components/ui/input.js';
import { Spinner } from '../../components/ui/spinner.js';
import { formatLetterDate } from './letter-format.js';
import { LETTER_TEXT, toastLetterError } from './letter-messages.js';
import { useSealLetter, useUnsealLetter } from './use-letters.js';
import { formatCalendarDay } from '../../lib/dates.js';

/** "14 May 2034": a sealed day is a calendar day, shown as such whatever the reader's zone. */
export function formatSealDay(day: string): string {
  return formatCalendarDay(day) || day;
}

/** The badge on a letter sealed for a milestone: who it is for and when it opens (or opened). */
export function milestoneBadgeText(milestone: LetterMilestone): string {
  return milestone.status === 'released'
    ? `Delivered to ${milestone.recipient_name} on ${milestone.released_at ? formatLetterDate(milestone.released_at) : formatSealDay(milestone.until)}`
    : `Sealed until ${formatSealDay(milestone.until)} for ${milestone.recipient_name}`;
}

export function MilestoneBadge({ milestone }: { milestone: LetterMilestone }) {
  const Icon = milestone.status === 'released' ? MailCheck : Lock;
  return (
    <p className="inline-flex w-fit items-center gap-1.5 rounded-full bg-primary/10 px-3 py-1 text-sm font-medium text-primary">
      <Icon aria-hidden="true" className="h-4 w-4" />
      {milestoneBadgeText(milestone)}
    </p>
  );
}

/** The browser's time zone: the sealed day begins at midnight there. */
export function ownerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Today's date where the owner is, YYYY-MM-DD (a date input's `min` is the day after). */
function localDay(offsetDays = 0, now = new Date()): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offsetDays);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

type SealField = 'until' | 'recipient_name' | 'recipient_email';
type SealErrors = Partial<Record<SealField, string>>;

/** The same rules as the server's, with its words, so a mistake is named before anything is sent. */
export function checkSealForm(form: Record<SealField, string>, today = localDay()): SealErrors {
  const errors: SealErrors = {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(form.until)) errors.until = MilestoneMessages.untilRequired;
  else if (form.until <= today) errors.until = MilestoneMessages.untilInFuture;
  const name = form.recipient_name.trim();
  if (!name) errors.recipient_name = MilestoneMessages.nameRequired;
  else if (name.length > MILESTONE_NAME_MAX) errors.recipient_name = MilestoneMessages.nameTooLong;
  const email = form.recipient_email.trim();
  if (!email) errors.recipient_email = MilestoneMessages.emailRequired;
  else if (email.length > MILESTONE_EMAIL_MAX || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(email)) errors.recipient_email = MilestoneMessages.emailInvalid;
  return errors;
}

function serverErrors(error: unknown): SealErrors {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED' || !error.body.fields) return {};
  const { until, time_zone: zone, recipient_name, recipient_email } = error.body.fields;
  return { ...(until || zone ? { until: until ?? zone } : {}), ...(recipient_name ? { recipient_name } : {}), ...(recipient_email ? { recipient_email } : {}) };
}

/**
 * "Seal until a date", in the letter editor: the owner chooses the day the letter may be opened and
 * who it is for. Until that day no key holder can read it; on the day its recipient is e-mailed a key
 * to this letter alone. A seal can be changed or removed until then, and not after.
 */
export function SealLetterSection({ letter, onChanged }: { letter: Letter; onChanged: (letter: Letter) => void }) {
  const milestone = letter.milestone ?? null;
  // On its day a sealed letter is e-mailed in the owner's name: letters refuses a seal until his address is verified (EMAIL_NOT_VERIFIED), and this says why first.
  const { user } = useAuth();
  const unverified = user !== null && !user.emailVerified;
  const seal = useSealLetter();
  const unseal = useUnsealLetter();
  const ids = { toggle: useId(), until: useId(), name: useId(), email: useId(), hint: useId() };
  const [open, setOpen] = useState(milestone !== null);
  const [form, setForm] = useState<Record<SealField, string>>({
    until: milestone?.until ?? '', recipient_name: milestone?.recipient_name ?? '', recipient_email: milestone?.recipient_email ?? '',
  });
  const [errors, setErrors] = useState<SealErrors>({});
  const busy = seal.isPending || unseal.isPending;

  if (milestone?.status === 'released') {
    return (
      <section aria-label="Seal until a date" className="flex flex-col gap-2 rounded-xl border border-border p-4">
        <MilestoneBadge milestone={milestone} />
        <p className="text-sm text-muted-foreground">{MilestoneMessages.released}</p>
      </section>
    );
  }

  const update = (field: SealField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkSealForm(form);
    setErrors(found);
    if (Object.keys(found).length) return;
    seal.mutate(
      { id: letter.id, seal: { until: form.until, time_zone: ownerTimeZone(), recipient_name: form.recipient_name.trim(), recipient_email: form.recipient_email.trim() } },
      {
        onSuccess: (sealed) => {
          toast.success(MilestoneMessages.sealed, { description: sealed.milestone ? milestoneBadgeText(sealed.milestone) : undefined });
          onChanged(sealed);
        },
        onError: (error) => {
          const fields = serverErrors(error);
          if (Object.keys(fields).length) setErrors(fields);
          else if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') toast.error(errorMessage(error, MilestoneMessages.verifyEmailFirst));
          else toastLetterError(LETTER_TEXT.updateError, error);
        },
      },
    );
  };

  const remove = () => {
    unseal.mutate(letter.id, {
      onSuccess: (unsealed) => {
        toast.success(MilestoneMessages.unsealed);
        setOpen(false);
        setForm({ until: '', recipient_name: '', recipient_email: '' });
        onChanged(unsealed);
      },
      onError: (error) => toastLetterError(LETTER_TEXT.updateError, error),
    });
  };

  const field = (name: SealField, id: string, label: string, input: Parameters<typeof Input>[0]) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        value={form[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-error` : undefined}
        onChange={(e) => update(name, e.target.value)}
        disabled={busy}
        {...input}
      />
      {errors[name] ? (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {errors[name]}
        </p>
      ) : null}
    </div>
  );

  return (
    <section aria-label="Seal until a date" className="flex flex-col gap-3 rounded-xl border border-border p-4">
      {milestone ? (
        <MilestoneBadge milestone={milestone} />
      ) : (
        <div className="flex items-start gap-2">
          <input id={ids.toggle} type="checkbox" className="mt-1 h-4 w-4" checked={open} aria-describedby={ids.hint} onChange={(e) => setOpen(e.target.checked)} />
          <Label htmlFor={ids.toggle}>Seal until a date</Label>
        </div>
      )}
      <p id={ids.hint} className="text-sm text-muted-foreground">
        No one with an access key can read a sealed letter. On the day you choose (from midnight, your time), we e-mail its recipient a key to this letter alone.
      </p>
      {open && unverified && !milestone ? (
        <Note>{MilestoneMessages.verifyEmailFirst}</Note>
      ) : null}
      {open ? (
        <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
          {field('until', ids.until, 'Open on', { type: 'date', min: localDay(1) })}
          {field('recipient_name', ids.name, 'Recipient’s name', { maxLength: MILESTONE_NAME_MAX, autoComplete: 'off' })}
          {field('recipient_email', ids.email, 'Recipient’s email', { type: 'email', maxLength: MILESTONE_EMAIL_MAX, autoComplete: 'off' })}
          <div className="flex flex-wrap justify-end gap-2">
            {milestone ? (
              <Button type="button" variant="outline" onClick={remove} disabled={busy}>
                {unseal.isPending ? <Spinner className="h-4 w-4" /> : null}
                Remove Seal
              </Button>
            ) : null}
            <Button type="submit" disabled={busy}>
              {seal.isPending ? <Spinner className="h-4 w-4" /> : null}
              {milestone ? 'Update Seal' : 'Seal Letter'}
            </Button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
