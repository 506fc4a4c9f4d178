import { useEffect, useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { BillingMessages, PLAN_CHARGES, planOf, planPriceLabel, type PaidTier } from '@lv/contracts';
import { errorMessage } from '../../api/client.js';
import { billingKeys, changePlan } from '../../api/billing.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { Button } from '../../components/ui/button.js';
import { ModalFrame } from '../../components/ui/modal.js';

/** identity takes the new tier from billing's event a moment after billing applied it: renew until the token carries it. */
const TIER_RENEWALS = 8;
const TIER_RENEWAL_GAP_MS = 1000;
const pause = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

/**
 * Confirms a switch of plan for an owner whose plan is active. The provider prorates the change;
 * billing answers once the provider has confirmed it (the local provider at once, Stripe usually
 * within seconds), and the session is renewed so the new plan's features open at once.
 */
export function SwitchPlanDialog({ from, to, onClose }: { from: PaidTier; to: PaidTier | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const tokenTier = useRef(auth.user?.subscription_tier);
  useEffect(() => {
    tokenTier.current = auth.user?.subscription_tier;
  });
  const change = useMutation({
    mutationFn: changePlan,
    onSuccess: async (view, plan) => {
      queryClient.setQueryData(billingKeys.subscription, view);
      onClose();
      const name = planOf(plan).name;
      if (view.tier !== plan) {
        toast.success(BillingMessages.planChangeRequested(name));
        return;
      }
      toast.success(BillingMessages.planChanged(name));
      // The access token carries the tier: a new one opens the plan's features without signing in again.
      for (let renewal = 0; renewal < TIER_RENEWALS; renewal += 1) {
        if (!(await auth.refresh()) || tokenTier.current === plan) break;
        await pause(TIER_RENEWAL_GAP_MS);
      }
      await queryClient.invalidateQueries();
    },
    onError: (error) => toast.error(BillingMessages.changePlanFailed, { description: errorMessage(error, 'Please try again.') }),
  });
  const current = planOf(from);
  const next = to ? planOf(to) : null;
  const newPeriod = to !== null && PLAN_CHARGES[from].interval !== PLAN_CHARGES[to].interval;
  return (
    <ModalFrame open={next !== null} onOpenChange={(open) => !open && !change.isPending && onClose()} title={next ? `Switch to ${next.name}?` : ''} widthClass="max-w-md"
      description={next ? `You move from ${current.name} (${planPriceLabel(current)}) to ${next.name} (${planPriceLabel(next)}) now. What is left of this period is credited against the new price${newPeriod ? ', and a new billing period starts today' : ''}. Nothing in your vault changes.` : ''}>
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose} disabled={change.isPending}>
          Keep {current.name}
        </Button>
        {next ? (
          <Button onClick={() => change.mutate(next.tier)} disabled={change.isPending}>
            Switch to {next.name}
          </Button>
        ) : null}
      </div>
    </ModalFrame>
  );
}
