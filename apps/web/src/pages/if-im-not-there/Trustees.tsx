import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Mail, Trash2 } from 'lucide-react';
import { RELATIONSHIP_OPTIONS, TRUSTEE_NAME_MAX, TRUSTEES_MAX, TrusteeMessages as M, type Relationship, type Trustee, type TrusteeStatus } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { addTrustee, fetchTrustees, removeTrustee, resendTrusteeInvitation, trusteeKeys } from '../../api/trustees.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { Note } from '../../components/ui/note.js';
import { Input, Label, Select } from '../../components/ui/input.js';
import { ConfirmDeleteDialog } from '../../components/ui/modal.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';
import { randomUuid } from '../../lib/uuid.js';
import { formatDate } from '../../lib/dates.js';

const EMPTY_FORM = { name: '', relationship: RELATIONSHIP_OPTIONS[0] as Relationship, email: '' };

const STATUS_LABELS: Record<TrusteeStatus, string> = {
  named: 'Not invited yet',
  invited: 'Invited',
  accepted: 'Accepted',
  declined: 'Declined',
  removed: 'Removed',
};

/** What the owner reads under a trustee's name: their answer, and when. */
function statusLine(trustee: Trustee): string {
  switch (trustee.status) {
    case 'named':
      return 'Not invited yet: send the invitation so they can accept the role.';
    case 'invited': {
      const expires = trustee.invitationExpiresAt;
      if (expires && Date.parse(expires) <= Date.now()) return `Invited on ${formatDate(trustee.invitedAt!)}; the link has expired. Send it again.`;
      return `Invited on ${formatDate(trustee.invitedAt!)}; the link works until ${formatDate(expires!)}.`;
    }
    case 'accepted':
      return `Accepted on ${formatDate(trustee.answeredAt!)}.`;
    case 'declined':
      return `Declined on ${formatDate(trustee.answeredAt!)}.`;
    case 'removed':
      return `Removed on ${formatDate(trustee.removedAt!)}; their link no longer works.`;
  }
}

/** What stands for a removed trustee, whose name was erased with his removal. */
const REMOVED_TRUSTEE_NAME = 'A removed trustee';

/**
 * Trustees: up to five people who may one day tell Legacy Vault that the owner has died or cannot
 * look after their affairs. Each is e-mailed an invitation (valid 14 days, used once) to accept or
 * decline; the owner sees every answer, can send the invitation again, and can remove anyone (their
 * link stops working at once). A trustee never sees the vault.
 */
export function Trustees() {
  const queryClient = useQueryClient();
  // An invitation is an e-mail in the owner's name: access-keys refuses it until his address is verified (EMAIL_NOT_VERIFIED), and this says why first.
  const { user } = useAuth();
  const unverified = user !== null && !user.emailVerified;
  const trustees = useQuery({ queryKey: trusteeKeys.list, queryFn: ({ signal }) => fetchTrustees(signal) });
  const ids = { name: useId(), relationship: useId(), email: useId() };
  const [form, setForm] = useState(EMPTY_FORM);
  // One id per trustee being added, kept across retries of the same add so they are invited once.
  const [pendingId, setPendingId] = useState(randomUuid);
  const [removing, setRemoving] = useState<Trustee | null>(null);
  const replace = (trustee: Trustee) => queryClient.setQueryData<Trustee[]>(trusteeKeys.list, (list = []) =>
    list.some((t) => t.id === trustee.id) ? list.map((t) => (t.id === trustee.id ? trustee : t)) : [...list, trustee]);

  const add = useMutation({
    mutationFn: () => addTrustee({ id: pendingId, name: form.name, relationship: form.relationship, email: form.email }),
    onSuccess: (trustee) => {
      replace(trustee);
      setForm(EMPTY_FORM);
      setPendingId(randomUuid());
      toast.success(M.invited(trustee.email));
    },
    onError: (error) => toast.error('Failed to add trustee.', { description: errorMessage(error, 'Please try again.') }),
  });
  const resend = useMutation({
    mutationFn: (trustee: Trustee) => resendTrusteeInvitation(trustee.id),
    onSuccess: (trustee) => {
      replace(trustee);
      toast.success(M.invited(trustee.email));
    },
    onError: (error) => toast.error('Failed to send the invitation.', { description: errorMessage(error, 'Please try again.') }),
  });
  const remove = useMutation({
    mutationFn: (trustee: Trustee) => removeTrustee(trustee.id),
    onSuccess: (trustee) => {
      setRemoving(null);
      replace(trustee);
      toast.success(M.removed);
    },
    onError: (error) => toast.error('Failed to remove trustee.', { description: errorMessage(error, 'Please try again.') }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.name.trim() || !form.email.trim()) {
      toast.error(M.nameAndEmailRequired);
      return;
    }
    add.mutate();
  };

  const listed = trustees.data?.filter((t) => t.status !== 'removed').length ?? 0;
  return (
    <div className="flex flex-col gap-6">
      <p className="text-sm text-muted-foreground">
        Up to {TRUSTEES_MAX} people you trust to tell us if you have died or cannot look after your affairs. They never see your vault; each is
        e-mailed an invitation to accept the role.
      </p>
      {unverified ? (
        <Note>{M.verifyEmailFirst}</Note>
      ) : null}
      {trustees.isPending ? (
        <Spinner label="Loading trustees…" />
      ) : trustees.isError ? (
        <LoadFailed message="Failed to load trustees." onRetry={() => void trustees.refetch()} />
      ) : trustees.data.length === 0 ? (
        <p className="text-muted-foreground">No trustees yet.</p>
      ) : (
        <ul aria-label="Trustees" className="flex flex-col gap-3">
          {trustees.data.map((trustee) => (
            <TrusteeItem
              key={trustee.id}
              trustee={trustee}
              busy={(resend.isPending && resend.variables?.id === trustee.id) || (remove.isPending && remove.variables?.id === trustee.id)}
              onResend={() => resend.mutate(trustee)}
              onRemove={() => setRemoving(trustee)}
            />
          ))}
        </ul>
      )}

      <ConfirmDeleteDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove ${removing?.name ?? 'this trustee'}?`}
        description="Their trustee link stops working at once."
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
      />

      {listed < TRUSTEES_MAX ? (
        <form aria-label="Add Trustee" noValidate onSubmit={submit} className="grid gap-4 rounded-2xl border border-dashed border-border p-4 sm:grid-cols-2">
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.name}>Trustee name</Label>
            <Input id={ids.name} autoComplete="off" maxLength={TRUSTEE_NAME_MAX} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.relationship}>Trustee relationship</Label>
            <Select id={ids.relationship} value={form.relationship} onChange={(e) => setForm({ ...form, relationship: e.target.value as Relationship })}>
              {RELATIONSHIP_OPTIONS.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </Select>
          </div>
          <div className="flex flex-col gap-2 sm:col-span-2">
            <Label htmlFor={ids.email}>Trustee email</Label>
            <Input id={ids.email} type="email" autoComplete="off" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          </div>
          <Button type="submit" className="justify-self-start sm:col-span-2" disabled={add.isPending}>
            {add.isPending ? 'Inviting…' : 'Invite Trustee'}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">{M.tooManyTrustees}</p>
      )}
    </div>
  );
}

function TrusteeItem({ trustee, busy, onResend, onRemove }: { trustee: Trustee; busy: boolean; onResend: () => void; onRemove: () => void }) {
  const nameId = useId();
  const removed = trustee.status === 'removed';
  return (
    <li aria-labelledby={nameId} className={`flex flex-wrap items-center gap-4 rounded-2xl border border-border bg-card p-4 ${removed ? 'opacity-60' : ''}`}>
      <div className="min-w-0 flex-1">
        <p id={nameId} className="font-medium">
          {/* A removed trustee's name and address are erased (access-keys shreds them): only the relationship stays. */}
          {trustee.name || REMOVED_TRUSTEE_NAME} <span className="ml-2 rounded-full bg-muted px-2 py-0.5 text-xs font-normal">{STATUS_LABELS[trustee.status]}</span>
        </p>
        <p className="text-sm text-muted-foreground">
          {trustee.email ? `${trustee.relationship} · ${trustee.email}` : trustee.relationship}
        </p>
        <p className="mt-1 text-sm">{statusLine(trustee)}</p>
      </div>
      {trustee.status === 'named' || trustee.status === 'invited' ? (
        <Button variant="outline" size="sm" disabled={busy} onClick={onResend} aria-label={`${trustee.status === 'named' ? 'Send invitation to' : 'Send invitation again to'} ${trustee.name}`}>
          <Mail aria-hidden="true" className="h-4 w-4" /> {trustee.status === 'named' ? 'Send invitation' : 'Send again'}
        </Button>
      ) : null}
      {!removed ? (
        <Button variant="ghost" size="icon" aria-label={`Remove trustee ${trustee.name}`} disabled={busy} onClick={onRemove}>
          <Trash2 aria-hidden="true" className="h-4 w-4" />
        </Button>
      ) : null}
    </li>
  );
}
