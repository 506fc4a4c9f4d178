import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { DeliveryReviewMessages } from '@lv/contracts';
import { adminKeys, approveDeliveryReview, fetchDeliveryReviews, openDeliveryReview, rejectDeliveryReview, type DeliveryReview, type DeliveryReviewSummary } from '../../api/admin.js';
import { errorMessage } from '../../api/client.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Label, Textarea } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { formatDateTime } from '../../lib/dates.js';

const TRIGGERS: Record<DeliveryReviewSummary['trigger'], string> = { 'trustee-report': "A trustee's report", inactivity: "The owner's inactivity" };
const ACTIONS: Record<DeliveryReview['log'][number]['action'], string> = { opened: 'Opened', verified: 'Approved', rejected: 'Rejected' };

/** Who reported, and when, in words. */
function reportedWords(review: DeliveryReviewSummary): string {
  if (!review.reported) return review.trigger === 'trustee-report' ? 'Confirmed by an operator' : '—';
  const { by, relationship, kind, reported_at } = review.reported;
  return `${by || 'A trustee'}${relationship ? ` (${relationship})` : ''} reported the owner ${kind === 'died' ? 'has died' : 'is incapacitated'}, ${formatDateTime(reported_at)}`;
}

/**
 * Vault deliveries waiting for legal verification (issue 31). Opening one is recorded by access-keys
 * with the admin's id, so a review is fetched only on "Review", never to fill the list; approving lets
 * the delivery go ahead, rejecting (with a reason) ends it.
 */
export function DeliveryReviewsCard() {
  const reviews = useQuery({ queryKey: adminKeys.deliveryReviews, queryFn: ({ signal }) => fetchDeliveryReviews(signal) });
  const [openOwner, setOpenOwner] = useState<string | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Delivery reviews</CardTitle>
        <CardDescription>Deliveries waiting for legal verification. Opening a review and every decision are recorded with your account.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {reviews.isPending ? (
          <p role="status">Loading delivery reviews...</p>
        ) : reviews.isError ? (
          <LoadFailed message={errorMessage(reviews.error, 'Could not load the delivery reviews.')} onRetry={() => void reviews.refetch()} />
        ) : !reviews.data.length ? (
          <p className="text-sm text-muted-foreground">No deliveries are waiting for review.</p>
        ) : (
          <ul aria-label="Deliveries waiting for review" className="flex flex-col gap-3">
            {reviews.data.map((review) => (
              <li key={review.owner_id} className="rounded-xl border border-border p-3">
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="text-sm">
                    <p className="font-medium break-all">{review.owner_email ?? review.owner_id}</p>
                    <p className="text-muted-foreground">{TRIGGERS[review.trigger]} · waiting since {formatDateTime(review.triggered_at)}</p>
                    <p className="text-muted-foreground">{reportedWords(review)}</p>
                  </div>
                  {openOwner === review.owner_id ? null : (
                    <Button type="button" size="sm" variant="outline" aria-label={`Review the delivery of ${review.owner_email ?? review.owner_id}`} onClick={() => setOpenOwner(review.owner_id)}>
                      Review
                    </Button>
                  )}
                </div>
                {openOwner === review.owner_id ? <OpenReview ownerId={review.owner_id} onClose={() => setOpenOwner(null)} /> : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** One opened review: the trustees, the documents (metadata only), its log, and the decision. */
function OpenReview({ ownerId, onClose }: { ownerId: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const reasonId = useId();
  const errorId = useId();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  // Not cached nor retried: each fetch is an opening access-keys records.
  const review = useQuery({ queryKey: [...adminKeys.deliveryReviews, ownerId], queryFn: () => openDeliveryReview(ownerId), staleTime: Infinity, gcTime: 0, retry: false });
  const decided = (message: string) => {
    toast.success(message);
    onClose();
    void queryClient.invalidateQueries({ queryKey: adminKeys.deliveryReviews, exact: true });
  };
  const approve = useMutation({
    mutationFn: () => approveDeliveryReview(ownerId),
    onSuccess: () => decided('Approved: the delivery goes ahead.'),
    onError: (error) => toast.error(errorMessage(error, 'Could not approve the delivery.')),
  });
  const reject = useMutation({
    mutationFn: (text: string) => rejectDeliveryReview(ownerId, text),
    onSuccess: () => decided('Rejected: the delivery has ended.'),
    onError: (error) => toast.error(errorMessage(error, 'Could not reject the delivery.')),
  });
  const busy = approve.isPending || reject.isPending;

  const submitReject = (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setReasonError(DeliveryReviewMessages.reasonRequired);
      return;
    }
    setReasonError(null);
    reject.mutate(text);
  };

  if (review.isPending) return <p role="status" className="mt-3 text-sm">Opening the review...</p>;
  if (review.isError) return <LoadFailed message={errorMessage(review.error, 'Could not open the review.')} onRetry={() => void review.refetch()} />;
  const { trustees, documents, log } = review.data;

  return (
    <section aria-label="Open review" className="mt-3 flex flex-col gap-3 border-t border-border pt-3 text-sm">
      <div>
        <h3 className="font-semibold">Trustees</h3>
        {trustees.length ? (
          <ul>{trustees.map((t, i) => <li key={i}>{t.name || 'Unnamed'} ({t.relationship}, {t.status})</li>)}</ul>
        ) : <p className="text-muted-foreground">No trustees named.</p>}
      </div>
      <div>
        <h3 className="font-semibold">Documents</h3>
        {documents.length ? (
          <ul>{documents.map((d, i) => <li key={i}>{d.name} ({d.content_type}, {d.size_bytes} bytes, {formatDateTime(d.added_at)})</li>)}</ul>
        ) : <p className="text-muted-foreground">The report holds no documents.</p>}
      </div>
      <div>
        <h3 className="font-semibold">Review log</h3>
        <ul aria-label="Review log">
          {log.map((entry, i) => <li key={i}>{ACTIONS[entry.action]} by {entry.operator_id ?? 'an operator'}, {formatDateTime(entry.at)}{entry.reason ? `: ${entry.reason}` : ''}</li>)}
        </ul>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="button" disabled={busy} onClick={() => approve.mutate()}>Approve</Button>
        <Button type="button" variant="ghost" disabled={busy} onClick={onClose}>Close</Button>
      </div>
      <form noValidate onSubmit={submitReject} className="flex flex-col gap-1.5">
        <Label htmlFor={reasonId}>Reason</Label>
        <Textarea
          id={reasonId} value={reason} onChange={(e) => setReason(e.target.value)} required aria-required="true" maxLength={2000}
          aria-invalid={reasonError ? true : undefined} aria-describedby={reasonError ? errorId : undefined}
        />
        {reasonError ? <p id={errorId} role="alert" className="text-sm text-destructive">{reasonError}</p> : null}
        <Button type="submit" variant="destructive" disabled={busy} className="self-start">Reject</Button>
      </form>
    </section>
  );
}
