import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { PLANS, planNamesText, tierIncludes, type PlanFeature } from '@lv/contracts';
import {
  ArrowRight,
  Check,
  HeartHandshake,
  Lock,
  Mic,
  PenLine,
  Scale,
  ShieldCheck,
  Sparkles,
  Star,
  Video,
} from 'lucide-react';
import { buttonClasses } from '../../components/ui/button.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { DailyInspiration } from './DailyInspiration.js';

/** The paid plan as the landing page advertises it (spec, section 9). */
export const ADVERTISED_PRICE = '£9.99';

/**
 * The spec's marketing lines, each tied to the row of the plan table that gives it, so the landing never
 * promises a plan what it lacks: a line only some plans include names them ("Pro and Legacy plans").
 * The project ships no music, so the library's line says whose choice its tracks are.
 */
export const VAULT_FEATURES: readonly { text: string; feature: PlanFeature | null; note?: string }[] = [
  { text: 'Unlimited message storage', feature: null },
  { text: 'Parent Circle access', feature: 'community' },
  { text: 'HD video and audio recording', feature: 'video-saving' },
  { text: 'Music library', feature: 'community', note: 'tracks chosen by the people who run this Legacy Vault' },
  { text: 'Scheduled message delivery', feature: 'letters' },
  { text: 'Writing assistance', feature: 'letters' },
];

/** "Pro and Legacy plans" for a line some plans lack; nothing for one every plan gives. */
export function featurePlansNote(feature: PlanFeature | null): string | null {
  if (!feature || PLANS.every((plan) => tierIncludes(plan.tier, feature))) return null;
  return `${planNamesText(feature)} plans`;
}

const STORIES_OF_HOPE = [
  {
    quote:
      "I hadn't seen my daughter in two years. Recording a message every Sunday gave me somewhere to put everything I wanted to tell her, and one day she'll hear every word.",
    name: 'Daniel',
    detail: 'father of one',
  },
  {
    quote: "Writing the letters I couldn't send kept me steady. It reminded me what really matters: my boys, and the man I want them to know.",
    name: 'Marcus',
    detail: 'father of two',
  },
  {
    quote: 'Having my court papers and notes in one calm, private place meant I walked into mediation prepared instead of panicked.',
    name: 'Priya',
    detail: 'mother of one',
  },
] as const;

const PARENT_REVIEWS = [
  { quote: 'Simple, private and kind. It feels like it was built by someone who understands what we go through.', name: 'James R.' },
  { quote: 'Writing to my son has become a ritual. He will have a letter for every birthday I missed.', name: 'Tom H.' },
  { quote: 'Knowing my messages are safe gives me a peace of mind I did not have before.', name: 'Aisha K.' },
] as const;

const MESSAGE_CARDS: { title: string; text: string; to: string; Icon: ComponentType<{ className?: string }> }[] = [
  { title: 'Audio Messages', text: 'Record your voice: a bedtime story, a birthday wish, a word of courage.', to: '/record', Icon: Mic },
  { title: 'Video Messages', text: 'Let them see your smile and hear your laugh, whenever they need it.', to: '/record', Icon: Video },
  { title: 'Write Your Letter', text: "Say what's on your heart, with gentle writing assistance when the words are hard.", to: '/letters', Icon: PenLine },
  { title: 'Upload Court Docs', text: 'Keep orders, receipts and evidence organised, private and ready.', to: '/court-journal', Icon: Scale },
];

const COMMUNITY_BENEFITS = [
  'Share experiences with parents who understand',
  'Healing music and guided reflections',
  'Encouragement on the hardest days',
  'Stories of hope and reconnection',
] as const;

function FiveStars() {
  return (
    <div role="img" aria-label="5 out of 5 stars" className="flex gap-0.5 text-amber-500">
      {[0, 1, 2, 3, 4].map((i) => (
        <Star key={i} aria-hidden="true" className="h-4 w-4 fill-current" />
      ))}
    </div>
  );
}

export function LandingPage() {
  usePageTitle();
  return (
    <div className="flex flex-col gap-20 pb-20">
      {/* Hero */}
      <section aria-labelledby="hero-title" className="relative overflow-hidden">
        <div aria-hidden="true" className="absolute inset-0 bg-gradient-to-br from-primary/15 via-background to-accent" />
        <div className="relative mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:py-24 md:grid-cols-[1.2fr_1fr] md:items-center">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-card/80 px-3 py-1 text-sm font-medium text-primary shadow-sm">
              <Lock aria-hidden="true" className="h-4 w-4" />
              A private vault for parents
            </p>
            <h1 id="hero-title" className="mt-5 font-serif text-4xl leading-tight font-semibold tracking-tight text-balance sm:text-5xl">
              Leave your children the words they will keep forever.
            </h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground">
              Legacy Vault keeps your video and audio messages, letters and important papers safe in one private place, ready for the day
              your children need to hear from you.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/pricing" className={buttonClasses({ size: 'lg' })}>
                Subscribe Now
                <ArrowRight aria-hidden="true" className="h-4 w-4" />
              </Link>
            </div>
          </div>
          <div aria-hidden="true" className="hidden md:block">
            <div className="rounded-3xl border border-border bg-card/90 p-6 shadow-lg">
              <div className="flex items-center gap-3">
                <span className="grid h-11 w-11 place-items-center rounded-full bg-primary/15 text-primary">
                  <Video className="h-5 w-5" />
                </span>
                <div>
                  <p className="font-semibold">For Ellie, on her 18th birthday</p>
                  <p className="text-sm text-muted-foreground">Video message · saved in your vault</p>
                </div>
              </div>
              <div className="mt-5 h-2 rounded-full bg-muted">
                <div className="h-2 w-2/3 rounded-full bg-primary" />
              </div>
              <p className="mt-5 font-serif text-lg leading-relaxed">
                “Whatever happens, I want you to know I never stopped thinking about you…”
              </p>
            </div>
          </div>
        </div>
      </section>

      {/* Headline */}
      <section aria-labelledby="headline-title" className="mx-auto max-w-3xl px-4 text-center">
        <h2 id="headline-title" className="font-serif text-3xl font-semibold tracking-tight sm:text-4xl">
          Your voice. Your story. Their future.
        </h2>
        <p className="mt-4 text-lg text-muted-foreground">
          Whether you see your children every day or are fighting to, your love deserves to be heard. Record it, write it and keep it safe
          until they are ready.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/vault" className={buttonClasses({ size: 'lg' })}>
            <Lock aria-hidden="true" className="h-4 w-4" />
            Enter My Vault
          </Link>
          <Link to="/how-it-works" className={buttonClasses({ variant: 'outline', size: 'lg' })}>
            How It Works
          </Link>
        </div>
      </section>

      <DailyInspiration />

      {/* Pricing */}
      <section aria-labelledby="vault-alive-title" className="mx-auto w-full max-w-5xl px-4">
        <div className="grid gap-8 rounded-3xl bg-gradient-to-br from-primary to-amber-800 p-8 text-primary-foreground shadow-lg sm:p-10 md:grid-cols-2 md:items-center dark:to-amber-600">
          <div>
            <h2 id="vault-alive-title" className="font-serif text-3xl font-semibold">
              Keep Your Vault Alive
            </h2>
            <p className="mt-3 opacity-90">Everything you save stays safe, private and ready for the people you love.</p>
            <p className="mt-6">
              <span className="font-serif text-5xl font-semibold">{ADVERTISED_PRICE}</span>
              <span className="ml-2 text-lg opacity-90">per month</span>
            </p>
            <Link
              to="/pricing"
              className="mt-6 inline-flex h-12 items-center gap-2 rounded-xl bg-background px-6 font-semibold text-foreground shadow-sm transition hover:bg-card focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
            >
              View Plans
              <ArrowRight aria-hidden="true" className="h-4 w-4" />
            </Link>
          </div>
          <ul className="grid gap-3" aria-label="What the plans include">
            {VAULT_FEATURES.map(({ text, feature, note }) => {
              const detail = [featurePlansNote(feature), note].filter(Boolean).join('; ');
              return (
                <li key={text} className="flex items-start gap-3 rounded-xl bg-white/10 px-4 py-2.5">
                  <Check aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
                  <span>
                    {text}
                    {detail ? <span className="block text-sm opacity-90">{detail}</span> : null}
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      {/* Stories of Hope */}
      <section aria-labelledby="stories-title" className="mx-auto w-full max-w-6xl px-4">
        <h2 id="stories-title" className="text-center font-serif text-3xl font-semibold">
          Stories of Hope
        </h2>
        <div className="mt-8 grid gap-5 md:grid-cols-3">
          {STORIES_OF_HOPE.map((story) => (
            <figure key={story.name} className="rounded-2xl border border-border bg-card p-6 shadow-sm">
              <blockquote className="font-serif text-lg leading-relaxed">
                <p>“{story.quote}”</p>
              </blockquote>
              <figcaption className="mt-4 text-sm text-muted-foreground">
                <span className="font-semibold text-foreground">{story.name}</span>, {story.detail}
              </figcaption>
            </figure>
          ))}
        </div>
      </section>

      {/* Message cards */}
      <section aria-labelledby="messages-title" className="mx-auto w-full max-w-6xl px-4">
        <h2 id="messages-title" className="text-center font-serif text-3xl font-semibold">
          Leave a Message That Lasts
        </h2>
        <ul className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {MESSAGE_CARDS.map(({ title, text, to, Icon }) => (
            <li key={title}>
              <Link
                to={to}
                className="group flex h-full flex-col rounded-2xl border border-border bg-card p-6 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                <span aria-hidden="true" className="grid h-12 w-12 place-items-center rounded-xl bg-primary/15 text-primary">
                  <Icon className="h-6 w-6" />
                </span>
                <h3 className="mt-4 text-lg font-semibold">{title}</h3>
                <p className="mt-2 flex-1 text-sm text-muted-foreground">{text}</p>
                <span aria-hidden="true" className="mt-4 inline-flex items-center gap-1 text-sm font-semibold text-primary">
                  Start <ArrowRight className="h-4 w-4 transition group-hover:translate-x-0.5" />
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      {/* Reviews */}
      <section aria-labelledby="reviews-title" className="mx-auto w-full max-w-6xl px-4">
        <h2 id="reviews-title" className="text-center font-serif text-3xl font-semibold">
          What Parents Are Saying
        </h2>
        <div className="mt-8 grid gap-5 md:grid-cols-3">
          {PARENT_REVIEWS.map((review) => (
            <figure key={review.name} className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-6 shadow-sm">
              <FiveStars />
              <blockquote className="flex-1 leading-relaxed">
                <p>“{review.quote}”</p>
              </blockquote>
              <figcaption className="text-sm font-semibold">{review.name}</figcaption>
            </figure>
          ))}
        </div>
      </section>

      {/* Community */}
      <section aria-labelledby="community-title" className="mx-auto w-full max-w-5xl px-4">
        <div className="grid gap-8 rounded-3xl border border-border bg-accent p-8 text-accent-foreground sm:p-10 md:grid-cols-2 md:items-center">
          <div>
            <span aria-hidden="true" className="grid h-12 w-12 place-items-center rounded-xl bg-card text-primary shadow-sm">
              <HeartHandshake className="h-6 w-6" />
            </span>
            <h2 id="community-title" className="mt-4 font-serif text-3xl font-semibold">
              Join Parent Community
            </h2>
            <p className="mt-3">You do not have to do this alone. The Parent Circle is a supportive space for parents who are apart from their children.</p>
            <Link to="/community" className={buttonClasses({ size: 'lg', className: 'mt-6' })}>
              Join Parent Community
              <ArrowRight aria-hidden="true" className="h-4 w-4" />
            </Link>
          </div>
          <ul className="grid gap-3" aria-label="Community benefits">
            {COMMUNITY_BENEFITS.map((benefit) => (
              <li key={benefit} className="flex items-center gap-3 rounded-xl bg-card px-4 py-3 text-foreground shadow-sm">
                <Sparkles aria-hidden="true" className="h-5 w-5 text-primary" />
                {benefit}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-label="Privacy" className="mx-auto flex max-w-3xl items-center justify-center gap-3 px-4 text-center text-sm text-muted-foreground">
        <ShieldCheck aria-hidden="true" className="h-5 w-5 shrink-0 text-primary" />
        <p>Your vault is private. Only you, and the family members you approve with an access key, can ever see what is inside.</p>
      </section>
    </div>
  );
}
