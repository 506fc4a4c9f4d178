import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { KeyRound, Trash2 } from 'lucide-react';
import { CONTACT_NAME_MAX, CONTACT_PHONE_MAX, IfImNotThereMessages as M, RELATIONSHIP_OPTIONS, type EmergencyContact, type Relationship } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { addContact, fetchContacts, ifImNotThereKeys, removeContact, setContactKey } from '../../api/if-im-not-there.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { Input, Label, Select } from '../../components/ui/input.js';
import { ConfirmDeleteDialog } from '../../components/ui/modal.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';
import { randomUuid } from '../../lib/uuid.js';
import { formatDate } from '../../lib/dates.js';

const EMPTY_FORM = { name: '', label: RELATIONSHIP_OPTIONS[0] as Relationship, email: '', phone: '' };

/**
 * Emergency contacts: add (name and email required, phone optional), remove, and each one's access
 * key toggle (on: a key valid 7 days is e-mailed to the contact; off: it stops working at once).
 */
export function EmergencyContacts() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const contacts = useQuery({ queryKey: ifImNotThereKeys.contacts, queryFn: ({ signal }) => fetchContacts(signal) });
  const ids = { name: useId(), label: useId(), email: useId(), phone: useId() };
  const [form, setForm] = useState(EMPTY_FORM);
  // One id per contact being added, kept across retries of the same add so it is added once.
  const [pendingId, setPendingId] = useState(randomUuid);
  const [removing, setRemoving] = useState<EmergencyContact | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ifImNotThereKeys.contacts });

  const add = useMutation({
    mutationFn: () => addContact({ id: pendingId, name: form.name, label: form.label, email: form.email, phone: form.phone }),
    onSuccess: (contact) => {
      queryClient.setQueryData<EmergencyContact[]>(ifImNotThereKeys.contacts, (list = []) => [...list.filter((c) => c.id !== contact.id), contact]);
      setForm(EMPTY_FORM);
      setPendingId(randomUuid());
      toast.success(M.contactAdded);
    },
    onError: (error) => toast.error(M.addContactFailed, { description: errorMessage(error, 'Please try again.') }),
  });
  const remove = useMutation({
    mutationFn: (contact: EmergencyContact) => removeContact(contact.id),
    onSuccess: () => {
      setRemoving(null);
      toast.success(M.contactRemoved);
      void refresh();
    },
    onError: (error) => toast.error(M.removeContactFailed, { description: errorMessage(error, 'Please try again.') }),
  });
  const toggleKey = useMutation({
    mutationFn: ({ contact, enabled }: { contact: EmergencyContact; enabled: boolean }) => setContactKey(contact.id, enabled),
    onSuccess: ({ contact, access_key }) => {
      queryClient.setQueryData<EmergencyContact[]>(ifImNotThereKeys.contacts, (list = []) => list.map((c) => (c.id === contact.id ? contact : c)));
      toast.success(contact.has_access_key ? M.keySent(contact.email) : M.keyRevoked, access_key ? { description: `Key: ${access_key}` } : undefined);
    },
    onError: (error) => toast.error(M.updateKeyFailed, { description: errorMessage(error, 'Please try again.') }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Spec 5: name and email are required, with this one message.
    if (!form.name.trim() || !form.email.trim()) {
      toast.error(M.nameAndEmailRequired);
      return;
    }
    add.mutate();
  };

  return (
    <div className="flex flex-col gap-6">
      {contacts.isPending ? (
        <Spinner label="Loading emergency contacts…" />
      ) : contacts.isError ? (
        <LoadFailed message={M.loadContactsFailed} onRetry={() => void contacts.refetch()} />
      ) : contacts.data.length === 0 ? (
        <p className="text-muted-foreground">No emergency contacts yet. Add the people who should be reached if you are not there.</p>
      ) : (
        <ul aria-label="Emergency contacts" className="flex flex-col gap-3">
          {contacts.data.map((contact) => (
            <ContactItem
              key={contact.id}
              contact={contact}
              unverified={user !== null && !user.emailVerified}
              busy={(toggleKey.isPending && toggleKey.variables?.contact.id === contact.id) || (remove.isPending && remove.variables?.id === contact.id)}
              onToggleKey={(enabled) => toggleKey.mutate({ contact, enabled })}
              onRemove={() => setRemoving(contact)}
            />
          ))}
        </ul>
      )}

      <ConfirmDeleteDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove ${removing?.name ?? 'this contact'}?`}
        description={removing?.has_access_key ? 'Their access key stops working at once.' : 'They will no longer be reached if you are not there.'}
        confirmLabel="Remove"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
      />

      <form aria-label="Add Emergency Contact" noValidate onSubmit={submit} className="grid gap-4 rounded-2xl border border-dashed border-border p-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor={ids.name}>Name</Label>
          <Input id={ids.name} autoComplete="off" maxLength={CONTACT_NAME_MAX} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={ids.label}>Relationship</Label>
          <Select id={ids.label} value={form.label} onChange={(e) => setForm({ ...form, label: e.target.value as Relationship })}>
            {RELATIONSHIP_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={ids.email}>Email</Label>
          <Input id={ids.email} type="email" autoComplete="off" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={ids.phone}>Phone (optional)</Label>
          <Input id={ids.phone} type="tel" autoComplete="off" maxLength={CONTACT_PHONE_MAX} value={form.phone} onChange={(e) => setForm({ ...form, phone: e.target.value })} />
        </div>
        <Button type="submit" className="justify-self-start sm:col-span-2" disabled={add.isPending}>
          {add.isPending ? 'Adding…' : 'Add Contact'}
        </Button>
      </form>
    </div>
  );
}

/** A contact key's e-mail in words: while the owner's address is unverified none is sent (access-keys withholds it), and that is why one "failed". */
function keyEmailText(contact: EmergencyContact, unverified: boolean): string {
  if (contact.access_key_email === 'failed') return unverified ? 'Key made but not e-mailed (verify your e-mail address first)' : 'Key e-mail failed';
  return contact.access_key_email === 'sent' ? 'Key sent' : 'Key being sent';
}

function ContactItem({ contact, unverified, busy, onToggleKey, onRemove }: {
  contact: EmergencyContact; unverified: boolean; busy: boolean; onToggleKey: (enabled: boolean) => void; onRemove: () => void;
}) {
  const nameId = useId();
  return (
    <li aria-labelledby={nameId} className="flex flex-wrap items-center gap-4 rounded-2xl border border-border bg-card p-4">
      <div className="min-w-0 flex-1">
        <p id={nameId} className="font-medium">
          {contact.name}
        </p>
        <p className="text-sm text-muted-foreground">
          {contact.label} · {contact.email}
          {contact.phone ? ` · ${contact.phone}` : ''}
        </p>
        {contact.has_access_key && contact.access_key_expires_at ? (
          <p className="mt-1 flex items-center gap-1.5 text-sm text-primary">
            <KeyRound aria-hidden="true" className="h-4 w-4" />
            {keyEmailText(contact, unverified)}, valid until {formatDate(contact.access_key_expires_at)}
          </p>
        ) : null}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <button
          type="button"
          role="switch"
          aria-checked={contact.has_access_key}
          aria-label={`Access key for ${contact.name}`}
          disabled={busy}
          onClick={() => onToggleKey(!contact.has_access_key)}
          className="relative h-6 w-11 rounded-full bg-muted transition aria-checked:bg-primary disabled:opacity-60"
        >
          <span aria-hidden="true" className={`absolute top-0.5 h-5 w-5 rounded-full bg-background shadow transition-all ${contact.has_access_key ? 'left-5.5' : 'left-0.5'}`} />
        </button>
        <span aria-hidden="true">Access key</span>
      </label>
      <Button variant="ghost" size="icon" aria-label={`Remove ${contact.name}`} disabled={busy} onClick={onRemove}>
        <Trash2 aria-hidden="true" className="h-4 w-4" />
      </Button>
    </li>
  );
}
