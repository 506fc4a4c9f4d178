import { useEffect, useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { ErrorCodes, TRUSTEE_REPORT_KINDS, TRUSTEE_REPORT_LABELS, TRUSTEE_REPORT_NOTE_MAX, TrusteeMessages as M, type TrusteeLink, type TrusteeReportKind, type TrusteeView } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { answerAsTrustee, reportAsTrustee, requestTrusteeLink, viewAsTrustee } from '../../api/trustees.js';
import { Button } from '../../components/ui/button.js';
import { Input, Label } from '../../components/ui/input.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { formatDate, formatDateTime } from '../../lib/dates.js';

const LINK_PARAMS = ['t', 'n', 'u', 'exp', 'sig'] as const;

/** The link's signed parameters, or null when one is missing (a link cut short by a mail program). */
function linkOf(params: URLSearchParams): TrusteeLink | null {
  const values = LINK_PARAMS.map((name) => params.get(name));
  if (values.some((v) => !v)) return null;
  const [t, n, u, exp, sig] = values as string[];
  return { t: t!, n: n!, u: u!, exp: exp!, sig: sig! };
}

const STORED_LINK = 'lv.trustee-link';

/** The link this tab opened last (sessionStorage: gone with the tab), so a reload still works. */
function storedLink(): TrusteeLink | null {
  try {
    const stored = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORED_LINK);
    return stored ? linkOf(new URLSearchParams(JSON.parse(stored) as Record<string, string>)) : null;
  } catch {
    return null;
  }
}

/**
 * The link's parameters, read once, then taken out of the address (as the access key's are): an
 * address is kept in history, synced across devices and shown over a shoulder. An address with only
 * part of a link (cut short by a mail program) is that broken link, never the stored one.
 */
function useTrusteeLink(): TrusteeLink | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [link] = useState(() => {
    const params = new URLSearchParams(location.search);
    if (!LINK_PARAMS.some((name) => params.has(name))) return storedLink();
    const fromAddress = linkOf(params);
    try {
      if (fromAddress) sessionStorage.setItem(STORED_LINK, JSON.stringify(fromAddress));
    } catch {
      // Storage refused (a private window): the link still works until the page is reloaded.
    }
    return fromAddress;
  });
  const carriesLink = LINK_PARAMS.some((name) => new URLSearchParams(location.search).has(name));
  useEffect(() => {
    if (carriesLink) void navigate(location.pathname, { replace: true });
  }, [carriesLink, location.pathname, navigate]);
  return link;
}

/**
 * /trustee?t=…&n=…&u=…&exp=…&sig=… (public): a trustee's page, opened from their e-mailed link. A
 * trustee has no account; the page shows who named them and their answer, never anything of the
 * vault. Answering takes a press (a mail program that opens links to scan them answers nothing), and
 * uses the link up. Without a working link it offers "send me my trustee link".
 */
export function TrusteePage() {
  usePageTitle('Trustee');
  const link = useTrusteeLink();
  const view = useQuery({ queryKey: ['trustee', link], queryFn: () => viewAsTrustee(link!), enabled: link !== null, retry: false });
  const answer = useMutation({ mutationFn: (choice: 'accept' | 'decline') => answerAsTrustee({ ...link!, answer: choice }) });
  const report = useMutation({ mutationFn: ({ kind, note }: { kind: TrusteeReportKind; note: string }) => reportAsTrustee(link!, kind, note) });
  const shown: TrusteeView | undefined = report.data ?? answer.data ?? view.data;

  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 px-4 py-16">
      <h1 className="text-center font-serif text-3xl font-semibold">Trustee of a Legacy Vault</h1>
      {link && view.isPending ? <Spinner label="Checking your link…" /> : null}
      {!link || view.isError ? (
        <p role="alert" className="text-center text-destructive">
          {link ? errorMessage(view.error, ErrorCodes.TRUSTEE_LINK_INVALID.message) : ErrorCodes.TRUSTEE_LINK_INVALID.message}
        </p>
      ) : null}
      {shown ? <Role view={shown} answered={answer.isSuccess} /> : null}
      {shown?.status === 'invited' && !answer.isSuccess ? (
        <div className="flex flex-col gap-3">
          {answer.isError ? (
            <p role="alert" className="text-destructive">
              {errorMessage(answer.error, 'Could not record your answer. Please try again.')}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-center gap-3">
            <Button size="lg" disabled={answer.isPending} onClick={() => answer.mutate('accept')}>
              Accept the role
            </Button>
            <Button size="lg" variant="outline" disabled={answer.isPending} onClick={() => answer.mutate('decline')}>
              Decline
            </Button>
          </div>
        </div>
      ) : null}
      {shown?.status === 'accepted' ? <ReportState view={shown} reported={report.isSuccess} /> : null}
      {shown?.status === 'accepted' && !shown.report && !shown.blockedUntil ? (
        <ReportForm pending={report.isPending} error={report.isError ? errorMessage(report.error, 'Could not send your report. Please try again.') : null} onReport={(kind, note) => report.mutate({ kind, note })} />
      ) : null}
      {/* Only once the link is checked: the form must not move under a tap when the answer (or its
          error) appears above it. */}
      {!shown && !(link && view.isPending) ? <SendMyLink /> : null}
    </div>
  );
}

function Role({ view, answered }: { view: TrusteeView; answered: boolean }) {
  const text = view.status === 'invited'
    ? `${view.ownerName} has named you, ${view.trusteeName}, as a trustee (${view.relationship}). A trustee can one day tell us that ${view.ownerName} has died or cannot look after their affairs; others are asked before anything happens. You never see the vault's contents.`
    : view.status === 'accepted'
      ? answered ? M.accepted : `You are a trustee of ${view.ownerName}'s Legacy Vault.`
      : view.status === 'declined' ? M.declined : `You are not a trustee of ${view.ownerName}'s Legacy Vault.`;
  return (
    <p role="status" aria-label="Your role" className="text-center">
      {text}
    </p>
  );
}

/** The trustee's report under way, or the 30 days after the owner vetoed theirs. */
function ReportState({ view, reported }: { view: TrusteeView; reported: boolean }) {
  if (view.report) {
    return (
      <p role="status" aria-label="Your report" className="text-center">
        {reported ? `${M.reported} ` : ''}
        {`You reported that ${view.ownerName} ${TRUSTEE_REPORT_LABELS[view.report.kind]}. Nothing is released before ${formatDateTime(view.report.vetoEndsAt)}.`}
      </p>
    );
  }
  if (view.blockedUntil) {
    return (
      <p role="status" aria-label="Your report" className="text-center">
        {`${ErrorCodes.TRUSTEE_REPORT_BLOCKED.message} (until ${formatDate(view.blockedUntil)})`}
      </p>
    );
  }
  return null;
}

/** What happened, with an optional note: sent only on a press, after choosing. */
function ReportForm({ pending, error, onReport }: { pending: boolean; error: string | null; onReport: (kind: TrusteeReportKind, note: string) => void }) {
  const noteId = useId();
  const [kind, setKind] = useState<TrusteeReportKind | null>(null);
  const [note, setNote] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind) onReport(kind, note);
  };
  return (
    <form aria-label="Report" noValidate onSubmit={submit} className="flex flex-col gap-3 rounded-2xl border border-border p-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="font-medium">Tell us what happened</legend>
        {TRUSTEE_REPORT_KINDS.map((k) => (
          <label key={k} className="flex items-center gap-2">
            <input type="radio" name="report-kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
            {`The owner ${TRUSTEE_REPORT_LABELS[k]}`}
          </label>
        ))}
      </fieldset>
      <Label htmlFor={noteId}>A note (optional)</Label>
      <textarea id={noteId} maxLength={TRUSTEE_REPORT_NOTE_MAX} value={note} onChange={(e) => setNote(e.target.value)} className="min-h-24 rounded-md border border-border p-2" />
      <p className="text-sm text-muted-foreground">The owner is told at once and can answer that he is still here; nothing is released before the waiting time ends.</p>
      {error ? (
        <p role="alert" className="text-destructive">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="self-start" disabled={pending || !kind}>
        Send the report
      </Button>
    </form>
  );
}

/** "Send me my trustee link": one answer for every address (only the client's own hourly budget can refuse). */
function SendMyLink() {
  const emailId = useId();
  const [email, setEmail] = useState('');
  const send = useMutation({ mutationFn: () => requestTrusteeLink(email) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate();
  };
  return (
    <form aria-label="Send me my trustee link" noValidate onSubmit={submit} className="flex flex-col gap-3 rounded-2xl border border-border p-4">
      <p className="text-sm text-muted-foreground">If you are a trustee, we can e-mail you a new link.</p>
      <Label htmlFor={emailId}>Your email</Label>
      <Input id={emailId} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      {send.isSuccess ? <p role="status">{send.data.message}</p> : null}
      {send.isError ? (
        <p role="alert" className="text-destructive">
          {errorMessage(send.error, 'Could not send. Please try again.')}
        </p>
      ) : null}
      <Button type="submit" className="self-start" disabled={send.isPending}>
        Send me my trustee link
      </Button>
    </form>
  );
}
