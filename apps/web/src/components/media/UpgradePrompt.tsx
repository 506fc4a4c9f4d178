import { Link } from 'react-router-dom';
import { Sparkles } from 'lucide-react';
import { planRequiredMessage, type PlanFeature } from '@lv/contracts';
import { buttonClasses } from '../ui/button.js';

const FEATURE_TEXT = {
  timeline: { title: 'Your Timeline is a paid feature', body: 'See every message, letter and document you have saved, day by day, in one place.' },
  'video-saving': { title: 'Video messages are a paid feature', body: 'Record video messages for your children, kept in your vault.' },
  'audio-saving': { title: 'Audio messages are a paid feature', body: 'Record voice notes for your children, kept in your vault.' },
} as const satisfies Partial<Record<PlanFeature, { title: string; body: string }>>;

/**
 * Shown instead of a gated feature, before anything is made with it: what it is, which plans include
 * it (the plans table's words) and the way to /pricing.
 */
export function UpgradePrompt({ feature }: { feature: keyof typeof FEATURE_TEXT }) {
  const text = FEATURE_TEXT[feature];
  return (
    <section aria-labelledby={`upgrade-${feature}`} className="rounded-2xl border border-primary/30 bg-primary/5 p-8 text-center" data-testid="upgrade-prompt">
      <span aria-hidden="true" className="mx-auto grid h-12 w-12 place-items-center rounded-full bg-primary/15 text-primary">
        <Sparkles className="h-6 w-6" />
      </span>
      <h2 id={`upgrade-${feature}`} className="mt-4 font-serif text-2xl font-semibold">
        {text.title}
      </h2>
      <p className="mx-auto mt-2 max-w-md text-muted-foreground">{text.body}</p>
      <p className="mx-auto mt-1 max-w-md text-sm text-muted-foreground">{planRequiredMessage(feature)}</p>
      <Link to="/pricing" className={buttonClasses({ className: 'mt-6' })}>
        Upgrade your plan
      </Link>
    </section>
  );
}
