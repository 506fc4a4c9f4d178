import { useId, useState, type FormEvent } from 'react';
import { AccessMessages, RequestLinkMessages } from '@lv/contracts';
import { ApiError, NetworkError } from '../../api/client.js';
import { submitAccessRequest } from '../../api/access.js';
import { Button } from '../../components/ui/button.js';
import { Input, Label, Textarea } from '../../components/ui/input.js';
import { randomUuid } from '../../lib/uuid.js';

interface Fields {
  email: string;
  name: string;
  relationship: string;
  reason: string;
  childName: string;
  childDob: string;
  accessKey: string;
}
const EMPTY: Fields = { email: '', name: '', relationship: '', reason: '', childName: '', childDob: '', accessKey: '' };
type Outcome = { kind: 'success' | 'error'; text: string } | null;

/** The first rule the form breaks (spec 5), in the spec's words; null when it may be sent. */
export function requestFormError(fields: Fields): string | null {
  if (!fields.email.trim()) return AccessMessages.emailRequired;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(fields.email.trim())) return AccessMessages.emailInvalid;
  if (!fields.relationship.trim()) return AccessMessages.relationshipRequired;
  if (!fields.reason.trim()) return AccessMessages.reasonRequired;
  return null;
}

const orNull = (value: string) => (value.trim() ? value.trim() : null);

/**
 * The Access Request Form (spec 2): a family member asks the owner (the link's ?owner=, or the signed-in
 * user) for a key. Without an owner nothing is sent. On success the form clears and says so.
 * Each filled form has a submission id of its own, sent again with every retry of it (a lost answer
 * then finds the request saved once); a change to the form, or a success, draws a new one.
 */
export function RequestAccessForm({ ownerId, signedInEmail, token }: { ownerId: string | null; signedInEmail: string | null; token: string | null }) {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [submissionId, setSubmissionId] = useState(randomUuid);
  const id = useId();
  const set = (name: keyof Fields) => (e: { target: { value: string } }) => {
    setFields((f) => ({ ...f, [name]: e.target.value }));
    setSubmissionId(randomUuid());
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ownerId) return setOutcome({ kind: 'error', text: AccessMessages.missingOwner });
    const withEmail = { ...fields, email: fields.email.trim() || signedInEmail || '' };
    const problem = requestFormError(withEmail);
    if (problem) return setOutcome({ kind: 'error', text: problem });
    setBusy(true);
    setOutcome(null);
    try {
      await submitAccessRequest({
        user_id: ownerId, requester_email: withEmail.email.trim(), requester_name: orNull(fields.name), relationship: fields.relationship.trim(), message: fields.reason.trim(),
        child_name: orNull(fields.childName), child_dob: orNull(fields.childDob), access_key: orNull(fields.accessKey), submission_id: submissionId,
      }, token);
      setFields(EMPTY);
      setSubmissionId(randomUuid());
      setOutcome({ kind: 'success', text: AccessMessages.submitted });
    } catch (error) {
      const text = error instanceof ApiError
        ? error.code === 'RATE_LIMITED' ? AccessMessages.tooManyRequests
          : error.code === 'REQUESTS_CLOSED' ? RequestLinkMessages.requestsClosed
            : AccessMessages.submitFailed(error.status, error.body.message)
        : AccessMessages.failedToSubmit(error instanceof NetworkError || error instanceof Error ? error.message : AccessMessages.unknownError);
      setOutcome({ kind: 'error', text });
    } finally {
      setBusy(false);
    }
  };

  const field = (name: keyof Fields, label: string, props: Record<string, unknown> = {}) => (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-${name}`}>{label}</Label>
      <Input id={`${id}-${name}`} value={fields[name]} onChange={set(name)} {...props} />
    </div>
  );

  return (
    <form aria-labelledby={`${id}-title`} noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
      <h2 id={`${id}-title`} className="font-serif text-xl font-semibold">Access Request Form</h2>
      {!ownerId && (
        <p role="alert" className="rounded-xl border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">{AccessMessages.missingOwner}</p>
      )}
      {field('email', 'Your Email', { type: 'email', required: true, autoComplete: 'email', placeholder: signedInEmail ?? undefined })}
      {field('name', 'Your Name', { autoComplete: 'name' })}
      {field('relationship', 'Your Relationship', { required: true, placeholder: 'e.g. Son, Daughter, Grandparent' })}
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-reason`}>Reason for Access</Label>
        <Textarea id={`${id}-reason`} value={fields.reason} onChange={set('reason')} required />
      </div>
      {field('childName', 'Child Name')}
      {field('childDob', 'Child DOB', { type: 'date' })}
      {field('accessKey', 'Access Key', { type: 'password', autoComplete: 'off' })}
      {outcome && (
        <p role={outcome.kind === 'error' ? 'alert' : 'status'} className={outcome.kind === 'error' ? 'text-sm text-destructive' : 'text-sm text-primary'}>{outcome.text}</p>
      )}
      <Button type="submit" disabled={busy}>{busy ? 'Submitting…' : 'Submit Access Request'}</Button>
    </form>
  );
}
