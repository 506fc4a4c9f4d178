import { Link } from 'react-router-dom';
import { Check } from 'lucide-react';
import { PLANS, type PaidTier, type SubscriptionTier } from '@lv/contracts';
import { Button, buttonClasses } from '../../components/ui/button.js';
import { cn } from '../../lib/cn.js';

/**
 * The three plans (spec 02, section 9), each with its price, what it includes and the way to its
 * checkout; with `onSwitch` (an owner whose plan is active), the other plans offer a switch instead.
 * With `onChoose`, choosing a plan opens the checkout dialog; a `promo` code goes along to the page.
 */
export function PlanCards({ currentTier, onSwitch, onChoose, promo = null }: {
  currentTier: SubscriptionTier | null;
  onSwitch?: (tier: PaidTier) => void;
  onChoose?: (tier: PaidTier) => void;
  promo?: string | null;
}) {
  return (
    <ul aria-label="Plans" className="grid gap-4 md:grid-cols-3">
      {PLANS.map((plan) => {
        const current = plan.tier === currentTier;
        const featured = plan.tier === 'pro';
        return (
          <li key={plan.id} aria-labelledby={`plan-${plan.tier}`} className={cn('flex flex-col gap-4 rounded-2xl border bg-card p-6 shadow-sm', featured ? 'border-primary' : 'border-border')}>
            <div>
              <h2 id={`plan-${plan.tier}`} className="font-serif text-2xl font-semibold">
                {plan.name}
              </h2>
              <p className="mt-2">
                <span className="text-3xl font-semibold">{plan.price}</span>
                <span className="text-muted-foreground"> per {plan.period}</span>
              </p>
            </div>
            <ul aria-label={`${plan.name} includes`} className="flex flex-1 flex-col gap-2 text-sm">
              {plan.features.map((feature) => (
                <li key={feature} className="flex gap-2">
                  <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-primary" />
                  {feature}
                </li>
              ))}
            </ul>
            {current ? (
              <p className="rounded-lg bg-muted px-3 py-2 text-center text-sm font-medium">Your current plan</p>
            ) : onSwitch ? (
              <Button variant={featured ? 'primary' : 'outline'} onClick={() => onSwitch(plan.tier)}>
                Switch to {plan.name}
              </Button>
            ) : onChoose ? (
              <Button variant={featured ? 'primary' : 'outline'} aria-haspopup="dialog" onClick={() => onChoose(plan.tier)}>
                Choose {plan.name}
              </Button>
            ) : (
              <Link to={`/checkout?plan=${plan.tier}${promo ? `&promo=${encodeURIComponent(promo)}` : ''}`} className={buttonClasses({ variant: featured ? 'primary' : 'outline' })}>
                Choose {plan.name}
              </Link>
            )}
          </li>
        );
      })}
    </ul>
  );
}
