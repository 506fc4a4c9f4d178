import { useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { AccessMessages, EmailVerifyMessages, VIEW_SECTIONS, type AccessRequest, type IssuedAccessKey, type ViewSection } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { Input } from '../../components/ui/input.js';
import { ModalFrame } from '../../components/ui/modal.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { formatDate, formatDateTime } from './access-format.js';
import { copyKey } from './clipboard.js';
import { RequestLinkCard } from './RequestLinkCard.js';
import { AllowDownloadChoice, SectionChoice } from './SectionChoice.js';
import { useApproveRequest, useDeclineRequest, usePendingRequests } from './use-access.js';

const DASH = '—';
const NOTHING_UNOWNED = 'Every request already names its vault owner, so there is nothing to claim.';
const decisionError = (error: unknown, fallback: string) => (error instanceof ApiError && error.code === 'ALREADY_DECIDED' ? AccessMessages.alreadyDecided : `${fallback}: ${errorMessage(error, AccessMessages.unknownError)}`);

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words">{value}</dd>
    </div>
  );
}

function RequestDetails({ request, onClose, onApproved }: { request: AccessRequest; onClose: () => void; onApproved: (key: IssuedAccessKey) => void }) {
  const approve = useApproveRequest();
  const decline = useDeclineRequest();
  const [sections, setSections] = useState<ViewSection[]>([...VIEW_SECTIONS]);
  const [allowDownload, setAllowDownload] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = approve.isPending || decline.isPending;
  return (
    <ModalFrame open onOpenChange={(open) => !open && !busy && onClose()} title="Access Request Details" description="Who is asking, and why." descriptionHidden widthClass="max-w-lg">
      <dl className="space-y-2">
        <Detail label="Child name" value={request.child_name ?? DASH} />
        <Detail label="Date of birth" value={request.child_dob ?? DASH} />
        <Detail label="Requester email" value={request.requester_email || DASH} />
        {request.requester_name && <Detail label="Requester name" value={request.requester_name} />}
        <Detail label="Requested" value={formatDateTime(request.created_at)} />
        {request.relationship && <Detail label="Relationship" value={request.relationship} />}
        {request.message && <Detail label="Message" value={request.message} />}
        {request.held_key && <Detail label="Key they hold" value={`${request.held_key.name ?? 'A key you issued'} (${request.held_key.status})`} />}
        <Detail label="Status" value={request.status === 'pending' ? 'Pending' : request.status} />
      </dl>
      {request.status === 'pending' && (
        <div className="mt-5 space-y-4">
          <SectionChoice value={sections} onChange={setSections} legend="Sections the key will open" />
          <AllowDownloadChoice value={allowDownload} onChange={setAllowDownload} />
          {error && <p role="alert" className="rounded-xl border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">{error}</p>}
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="outline"
              disabled={busy}
              onClick={() => decline.mutate(request.id, { onSuccess: onClose, onError: (e) => setError(decisionError(e, 'Decline failed')) })}
            >
              {decline.isPending ? 'Declining…' : 'Decline Request'}
            </Button>
            <Button
              disabled={busy || sections.length === 0}
              onClick={() => approve.mutate({ id: request.id, scopes: sections, allowDownload }, { onSuccess: onApproved, onError: (e) => setError(decisionError(e, AccessMessages.approveFailed)) })}
            >
              {approve.isPending ? 'Approving…' : 'Approve Access'}
            </Button>
          </div>
        </div>
      )}
    </ModalFrame>
  );
}

function KeyCreatedDialog({ issued, onClose }: { issued: IssuedAccessKey; onClose: () => void }) {
  return (
    <ModalFrame open onOpenChange={(open) => !open && onClose()} title="Access Key Created" description={`${issued.emailed ? `We've emailed the key to ${issued.recipient_email}` : EmailVerifyMessages.keyNotEmailed} — expires on ${formatDate(issued.expires_at)}`} widthClass="max-w-lg">
      <div className="flex items-center gap-2">
        <Input aria-label="Access key" value={issued.access_key} readOnly className="font-mono" />
        <Button variant="outline" onClick={() => void copyKey(issued.access_key)}>Copy</Button>
      </div>
      <p className="mt-3 text-sm text-muted-foreground">This is the only time the key is shown: we keep a fingerprint of it, not the key.</p>
      <div className="mt-5 flex justify-end">
        <Button onClick={onClose}>Close</Button>
      </div>
    </ModalFrame>
  );
}

/**
 * Connection Requests (/access-control, spec 2): the owner's pending requests, each opened in a details
 * dialog to approve (a key is created and emailed) or decline. Requests always name their owner here,
 * so 'Claim Unowned' has nothing to claim and stays disabled. Below them, the owner's request link
 * (issue 28) to share, with its QR code and the switch that opens or closes it.
 */
export function ConnectionRequestsPage() {
  usePageTitle('Connection Requests');
  const { user } = useAuth();
  const requests = usePendingRequests(!!user);
  const [open, setOpen] = useState<AccessRequest | null>(null);
  const [issued, setIssued] = useState<IssuedAccessKey | null>(null);
  const items = requests.data?.items ?? [];

  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="space-y-1">
          <h1 className="font-serif text-3xl font-semibold">Connection Requests</h1>
          <p className="text-muted-foreground">Approve or decline access to your vault</p>
        </div>
        <div className="flex items-center gap-2">
          <span className="rounded-full bg-secondary px-3 py-1 text-sm font-medium">{items.length} Pending</span>
          <Button variant="outline" size="sm" onClick={() => void requests.refetch()} disabled={requests.isFetching}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />Refresh
          </Button>
          {/* Spec: disabled when every request already has an owner; here a request always names its vault. */}
          <Button variant="outline" size="sm" disabled title={NOTHING_UNOWNED} aria-describedby="claim-unowned-why">Claim Unowned</Button>
          <span id="claim-unowned-why" className="sr-only">{NOTHING_UNOWNED}</span>
        </div>
      </div>
      {requests.isError && <p role="alert" className="rounded-xl border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">{errorMessage(requests.error, AccessMessages.notSignedIn)}</p>}
      {requests.isPending ? <p>Loading…</p> : items.length === 0 ? (
        <p>No pending requests{user?.email ? ` for ${user.email}` : ''}</p>
      ) : (
        <ul aria-label="Pending requests" className="grid gap-3 sm:grid-cols-2">
          {items.map((request) => (
            <li key={request.id}>
              <button
                type="button"
                onClick={() => setOpen(request)}
                className="w-full space-y-1 rounded-2xl border border-border bg-card p-4 text-left shadow-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
              >
                <span className="flex items-center justify-between gap-2">
                  <span className="font-medium">{request.child_name ?? 'Access Request'}</span>
                  <span className="rounded-full bg-secondary px-2 py-0.5 text-xs">Pending</span>
                </span>
                <span className="block text-sm text-muted-foreground">{request.child_dob ?? DASH}</span>
                <span className="block text-sm text-muted-foreground">From {request.requester_email} · {formatDateTime(request.created_at)}</span>
                <span className="block text-sm text-primary">Click to respond</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {user && <RequestLinkCard ownerId={user.id} />}
      {open && (
        <RequestDetails
          request={open}
          onClose={() => setOpen(null)}
          onApproved={(key) => {
            setOpen(null);
            setIssued(key);
          }}
        />
      )}
      {issued && <KeyCreatedDialog issued={issued} onClose={() => setIssued(null)} />}
    </div>
  );
}
