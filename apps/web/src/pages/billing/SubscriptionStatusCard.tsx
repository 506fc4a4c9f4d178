import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { BillingMessages, planOf, planPriceLabel, SUBSCRIPTION_STATUS_LABELS, type SubscriptionView } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { billingKeys, cancelSubscription, fetchSubscription } from '../../api/billing.js';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { ModalFrame } from '../../components/ui/modal.js';
import { Spinner } from '../../components/ui/spinner.js';
import { formatDate } from '../../lib/dates.js';

// The period's last day as billed (UTC), whatever the reader's zone.
const longDate = (iso: string) => formatDate(iso, { timeZone: 'UTC' });

/** The date line under the status: the next billing, or the day access ends after a cancellation. */
export function periodLine(view: SubscriptionView): string | null {
  if (!view.current_period_end) return null;
  if (view.status === 'active') return `Next billing: ${longDate(view.current_period_end)}`;
  if (view.status === 'cancelling') return `Active until: ${longDate(view.current_period_end)}`;
  return null;
}

/**
 * Settings' Subscription Status (spec 02): the plan, its price, its status and the next billing date,
 * with Upgrade Plan (to /pricing) and Cancel Subscription (confirmed first; the plan stays active
 * until the end of the period already paid for, as the data-retention note says).
 */
export function SubscriptionStatusCard() {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const subscription = useQuery({ queryKey: billingKeys.subscription, queryFn: ({ signal }) => fetchSubscription(signal) });
  const cancel = useMutation({
    mutationFn: cancelSubscription,
    onSuccess: (view) => {
      queryClient.setQueryData(billingKeys.subscription, view);
      setConfirming(false);
      toast.success(BillingMessages.cancelled);
    },
    onError: (error) => toast.error(BillingMessages.cancelFailed, { description: errorMessage(error, 'Please try again.') }),
  });
  const view = subscription.data;
  const plan = view && view.tier !== 'none' && (view.status === 'active' || view.status === 'cancelling') ? planOf(view.tier) : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Subscription Status</CardTitle>
        <CardDescription>{BillingMessages.dataRetention}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {subscription.isPending ? (
          <Spinner label="Loading your subscription…" />
        ) : subscription.isError ? (
          <LoadFailed message="Could not load your subscription." onRetry={() => void subscription.refetch()} />
        ) : (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
              <dt className="text-muted-foreground">Plan</dt>
              <dd className="font-medium">{plan ? `Vault ${plan.name}` : 'No plan'}</dd>
              {plan ? (
                <>
                  <dt className="text-muted-foreground">Price</dt>
                  <dd>{planPriceLabel(plan)}</dd>
                </>
              ) : null}
              <dt className="text-muted-foreground">Status</dt>
              <dd data-testid="subscription-status">{SUBSCRIPTION_STATUS_LABELS[view!.status]}</dd>
              {periodLine(view!) ? (
                <>
                  <dt className="sr-only">Period</dt>
                  <dd className="col-span-2">{periodLine(view!)}</dd>
                </>
              ) : null}
            </dl>
            {plan ? (
              <ul aria-label="Your plan includes" className="list-disc pl-5 text-sm text-muted-foreground">
                {plan.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            ) : null}
            <div className="flex flex-wrap gap-3">
              <Link to="/pricing" className={buttonClasses()}>
                Upgrade Plan
              </Link>
              {view!.status === 'active' ? (
                <Button variant="outline" onClick={() => setConfirming(true)}>
                  Cancel Subscription
                </Button>
              ) : null}
            </div>
          </>
        )}
      </CardContent>
      <ModalFrame open={confirming} onOpenChange={(open) => !cancel.isPending && setConfirming(open)} title="Cancel your subscription?" widthClass="max-w-md"
        description={`${view?.current_period_end ? `Your plan stays active until ${longDate(view.current_period_end)}` : 'Your plan stays active until the end of the billing period'}, and you will not be charged again. Nothing in your vault is deleted.`}>
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="outline" onClick={() => setConfirming(false)} disabled={cancel.isPending}>
            Keep My Plan
          </Button>
          <Button variant="destructive" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
            Cancel Subscription
          </Button>
        </div>
      </ModalFrame>
    </Card>
  );
}
