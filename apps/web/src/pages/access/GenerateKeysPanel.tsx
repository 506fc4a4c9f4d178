import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'sonner';
import {
  AccessMessages, EmailVerifyMessages, KEY_EXPIRY_DAYS_DEFAULT, KEY_EXPIRY_DAYS_MAX, KEY_EXPIRY_DAYS_MIN, VIEW_SECTIONS, VIEWER_TAB_LABELS, type AccessKeySummary, type IssuedAccessKey, type KeyDraft,
  type ViewSection, type ViewSessionSummary,
} from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { ConfirmDeleteDialog } from '../../components/ui/modal.js';
import { formatDate, formatDateTime, sectionNames } from './access-format.js';
import { copyKey } from './clipboard.js';
import { AllowDownloadChoice, SectionChoice } from './SectionChoice.js';
import { useAccessKeyList, useCreateKey, useDraftKey, useRevokeKey, useRevokeSession, useViewSessions } from './use-access.js';

/** The first rule the key form breaks (spec 5), in the spec's words. */
export function keyFormError(form: { key: string; name: string; email: string; days: string; sections: ViewSection[] }): string | null {
  if (!form.key) return AccessMessages.noKeyGenerated;
  if (!form.name.trim()) return AccessMessages.missingName;
  if (!form.email.trim()) return AccessMessages.missingEmail;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) return AccessMessages.emailInvalid;
  const days = Number(form.days);
  if (!Number.isInteger(days) || days < KEY_EXPIRY_DAYS_MIN || days > KEY_EXPIRY_DAYS_MAX) return AccessMessages.keyExpiryInvalid;
  if (form.sections.length === 0) return AccessMessages.scopesRequired;
  return null;
}

const STATUS_TEXT = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;
const EMAIL_TEXT = { queued: 'Email queued', sent: 'Emailed', failed: AccessMessages.emailSendFailed } as const;

/** The key's e-mail status in words; a daily cap or an unverified address says so, since the owner can share the key himself. */
function emailText(item: AccessKeySummary): string {
  if (item.email_status === 'failed' && item.email_failure === 'daily_limit') return AccessMessages.emailDailyLimit;
  if (item.email_status === 'failed' && item.email_failure === 'email_not_verified') return EmailVerifyMessages.keyNotEmailed;
  return EMAIL_TEXT[item.email_status];
}

function KeyForm() {
  const id = useId();
  const [generated, setGenerated] = useState<KeyDraft | null>(null);
  const key = generated?.access_key ?? '';
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [days, setDays] = useState(String(KEY_EXPIRY_DAYS_DEFAULT));
  const [sections, setSections] = useState<ViewSection[]>([...VIEW_SECTIONS]);
  const [allowDownload, setAllowDownload] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<IssuedAccessKey | null>(null);
  const create = useCreateKey();
  const draft = useDraftKey();

  const generate = () => {
    setSaved(null);
    draft.mutate(undefined, {
      onSuccess: (made) => setGenerated(made),
      onError: (e) => toast.error(AccessMessages.couldNotGenerateKey, { description: errorMessage(e, AccessMessages.couldNotGenerateKey) }),
    });
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    const error = keyFormError({ key, name, email, days, sections });
    setProblem(error);
    if (error || !generated) return;
    create.mutate({ access_key: generated.access_key, draft: generated.draft, name: name.trim(), email: email.trim(), expires_in_days: Number(days), scopes: sections, allow_download: allowDownload }, {
      onSuccess: (issued) => {
        setSaved(issued);
        setGenerated(null);
        setName('');
        setEmail('');
        toast.success('Access key saved', { description: issued.emailed ? `We'll email it to ${issued.recipient_email}.` : EmailVerifyMessages.keyNotEmailed });
      },
      onError: (e) => toast.error(AccessMessages.saveFailed, { description: errorMessage(e, AccessMessages.couldNotSaveKey) }),
    });
  };

  return (
    <form aria-labelledby={`${id}-title`} noValidate onSubmit={save} className="space-y-4">
      <h3 id={`${id}-title`} className="font-serif text-lg font-semibold">Generate an access key</h3>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-64 flex-1 space-y-1.5">
          <Label htmlFor={`${id}-key`}>Access key</Label>
          <Input id={`${id}-key`} value={key} readOnly placeholder="Click Generate Access Key" className="font-mono" />
        </div>
        <Button type="button" variant="outline" disabled={draft.isPending} onClick={generate}>Generate Access Key</Button>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-name`}>Family member name</Label>
          <Input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-email`}>Recipient email</Label>
          <Input id={`${id}-email`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={`${id}-days`}>Expiry (days)</Label>
          <Input id={`${id}-days`} type="number" min={KEY_EXPIRY_DAYS_MIN} max={KEY_EXPIRY_DAYS_MAX} value={days} onChange={(e) => setDays(e.target.value)} />
        </div>
      </div>
      <SectionChoice value={sections} onChange={setSections} />
      <AllowDownloadChoice value={allowDownload} onChange={setAllowDownload} />
      {problem && <p role="alert" className="text-sm text-destructive">{problem}</p>}
      <Button type="submit" disabled={create.isPending}>{create.isPending ? 'Saving…' : 'Save Key'}</Button>
      {saved && (
        <div role="status" className="space-y-2 rounded-xl border border-border bg-secondary/40 p-4 text-sm">
          <p>
            {saved.emailed
              ? `Saved. We'll email the key to ${saved.recipient_email}; it expires on ${formatDate(saved.expires_at)}. It is shown only now:`
              : `Saved. ${EmailVerifyMessages.keyNotEmailed} It expires on ${formatDate(saved.expires_at)}. It is shown only now:`}
          </p>
          <div className="flex items-center gap-2">
            <Input aria-label="Saved access key" value={saved.access_key} readOnly className="font-mono" />
            <Button type="button" variant="outline" onClick={() => void copyKey(saved.access_key)}>Copy</Button>
          </div>
        </div>
      )}
    </form>
  );
}

function KeyItem({ item, onRevoke }: { item: AccessKeySummary; onRevoke: () => void }) {
  return (
    <li aria-label={item.name ?? item.recipient_email} className="flex flex-wrap items-start justify-between gap-3 rounded-xl border border-border p-4">
      <div className="space-y-1 text-sm">
        <p className="font-medium">{item.name ?? item.recipient_email} <span className="text-muted-foreground">({item.recipient_email})</span></p>
        <p>
          <span className="rounded-full bg-secondary px-2 py-0.5 text-xs font-medium">{STATUS_TEXT[item.status]}</span>{' '}
          <span className={item.email_status === 'failed' ? 'text-destructive' : 'text-muted-foreground'}>{emailText(item)}</span>
        </p>
        <p className="text-muted-foreground">Opens: {sectionNames(item.scopes)} · expires {formatDate(item.expires_at)}{item.allow_download ? ' · Downloads allowed' : ''}</p>
        <p className="text-muted-foreground">
          {item.sessions === 0 ? 'Not used yet' : `Used on ${item.sessions} device${item.sessions === 1 ? '' : 's'}`}
          {item.last_viewed_at ? ` · last viewed ${formatDateTime(item.last_viewed_at)}` : ''}
        </p>
      </div>
      {item.status === 'active' && <Button variant="outline" size="sm" onClick={onRevoke}>Revoke</Button>}
    </li>
  );
}

/** Every item this viewing opened, by title, once each (the list below shows only the latest views). */
function openedTitles(session: ViewSessionSummary): string[] {
  return [...new Set(session.views.flatMap((v) => (v.item?.title ? [v.item.title] : [])))];
}

function SessionItem({ item, onRevoke }: { item: ViewSessionSummary; onRevoke: () => void }) {
  return (
    <li aria-label={`Viewing by ${item.key_name ?? item.recipient_email}`} className="space-y-1 rounded-xl border border-border p-4 text-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className="font-medium">{item.key_name ?? item.recipient_email} · opened {formatDateTime(item.opened_at)}</p>
        {item.status === 'active' && <Button variant="outline" size="sm" onClick={onRevoke}>Revoke session</Button>}
      </div>
      <p className="text-muted-foreground">Status: {item.status} · disclaimer {item.consent.consent_version} accepted {formatDateTime(item.consent.accepted_at)}</p>
      {openedTitles(item).length > 0 && <p className="break-words">Opened: {openedTitles(item).join(', ')}</p>}
      {item.views.length > 0 ? (
        <ul aria-label="Views" className="list-disc pl-5 text-muted-foreground">
          {item.views.slice(0, 10).map((v) => (
            <li key={`${v.section}-${v.item?.id ?? ''}-${v.at}`} className="break-words">
              {VIEWER_TAB_LABELS[v.section]}{v.item?.title ? `: ${v.item.title}` : ''} · {formatDateTime(v.at)}
            </li>
          ))}
        </ul>
      ) : <p className="text-muted-foreground">Nothing viewed yet.</p>}
    </li>
  );
}

/**
 * Generate Keys (Family Access Keys, spec 2): a key for a named family member, saved as a hash and
 * emailed; the owner's real keys (not sample entries) with their status; who viewed what and when.
 */
export function GenerateKeysPanel() {
  const { user } = useAuth();
  const keys = useAccessKeyList(!!user);
  const sessions = useViewSessions(!!user);
  const revokeKey = useRevokeKey();
  const revokeSession = useRevokeSession();
  const [revoking, setRevoking] = useState<{ kind: 'key' | 'session'; id: string } | null>(null);

  if (!user) {
    return (
      <Card>
        <CardHeader><CardTitle>Family Access Keys</CardTitle></CardHeader>
        <CardContent className="space-y-3">
          <p>{AccessMessages.notSignedIn}</p>
          <Link className={buttonClasses({ variant: 'outline' })} to="/auth" state={{ from: '/access-key' }}>Sign in</Link>
        </CardContent>
      </Card>
    );
  }

  const confirm = () => {
    if (!revoking) return;
    const done = { onSettled: () => setRevoking(null), onError: (e: unknown) => toast.error(errorMessage(e, 'Could not revoke.')) };
    if (revoking.kind === 'key') revokeKey.mutate(revoking.id, done);
    else revokeSession.mutate(revoking.id, done);
  };

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>Family Access Keys</CardTitle>
          <CardDescription>Give a family member read-only access to the parts of your vault you choose.</CardDescription>
        </CardHeader>
        <CardContent><KeyForm /></CardContent>
      </Card>
      <Card>
        <CardHeader><CardTitle>How Access Keys Work</CardTitle></CardHeader>
        <CardContent>
          <ul className="list-disc space-y-1 pl-5 text-sm">
            <li>Each key is emailed to the person you name, and works until it expires or you revoke it.</li>
            <li>Before they see anything, they accept a short privacy notice; you can see when they did.</li>
            <li>They can only read, never change anything, and only the sections you chose.</li>
            <li>We keep only a fingerprint of each key: it is shown to you once, when you create it.</li>
          </ul>
        </CardContent>
      </Card>
      <Card>
        <CardHeader><CardTitle>Your keys</CardTitle></CardHeader>
        <CardContent>
          {keys.isPending ? <p>Loading…</p> : keys.isError ? <p role="alert">{errorMessage(keys.error, 'Could not load your keys.')}</p> : keys.data.length === 0 ? <p>No keys yet.</p> : (
            <ul aria-label="Your keys" className="space-y-3">
              {keys.data.map((item) => <KeyItem key={item.id} item={item} onRevoke={() => setRevoking({ kind: 'key', id: item.id })} />)}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader><CardTitle>Who viewed your vault</CardTitle></CardHeader>
        <CardContent>
          {sessions.isPending ? <p>Loading…</p> : sessions.isError ? <p role="alert">{errorMessage(sessions.error, 'Could not load the views.')}</p> : sessions.data.length === 0 ? <p>Nobody has opened your vault yet.</p> : (
            <ul aria-label="View sessions" className="space-y-3">
              {sessions.data.map((item) => <SessionItem key={item.id} item={item} onRevoke={() => setRevoking({ kind: 'session', id: item.id })} />)}
            </ul>
          )}
        </CardContent>
      </Card>
      <ConfirmDeleteDialog
        open={revoking !== null}
        onClose={() => setRevoking(null)}
        title={revoking?.kind === 'key' ? 'Revoke this key?' : 'End this viewing session?'}
        description={revoking?.kind === 'key' ? 'The key stops working at once, and anyone viewing with it is signed out of your vault.' : 'This device stops seeing your vault at once.'}
        pending={revokeKey.isPending || revokeSession.isPending}
        onConfirm={confirm}
        confirmLabel="Revoke"
      />
    </div>
  );
}
