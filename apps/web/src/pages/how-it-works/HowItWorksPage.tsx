import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { ArrowRight, Eye, KeyRound, Lock, Scale, Video } from 'lucide-react';
import { buttonClasses } from '../../components/ui/button.js';
import { usePageTitle } from '../../lib/use-page-title.js';

interface Step {
  title: string;
  Icon: ComponentType<{ className?: string }>;
  body: string;
  points: string[];
}

const STEPS: Step[] = [
  {
    title: 'Create your vault',
    Icon: Lock,
    body: 'Sign up with your email and a password. Your vault is private from the first minute: only you can open it.',
    points: ['No one else can see what you save', 'Sign in from any browser with your email and password'],
  },
  {
    title: 'Record and write',
    Icon: Video,
    body: 'Record video and audio messages, write letters you are not ready to send, keep your private thoughts and build a "Who I Am" profile so your children know the person behind the name.',
    points: ['Video and audio messages with a title', 'Letters, with a guided letter wizard when the words are hard', 'Everything you save appears on your timeline'],
  },
  {
    title: 'Organise evidence',
    Icon: Scale,
    body: 'Upload court papers, receipts, photos, emails and witness statements into a Court Journal, grouped by category and date, and mark the documents that matter most as key evidence.',
    points: ['PDF, Word and image files up to 10MB', 'Only you and family members you approve can view them'],
  },
  {
    title: 'Approve family access keys',
    Icon: KeyRound,
    body: 'Your children or family members can ask for access. You review each request and approve or decline it. An approved request creates a time-limited access key that is emailed to them.',
    points: ['You decide who gets in, one request at a time', 'Keys expire, and a key holder needs no account and no payment'],
  },
  {
    title: 'What family members see',
    Icon: Eye,
    body: 'A key holder opens a read-only view of your vault: your timeline, letters, court journal, "Who I Am" profile and "If I\'m Not There" messages. They cannot change or delete anything.',
    points: ['Read-only, for a limited time', 'They first agree to a short privacy and consent notice'],
  },
];

export function HowItWorksPage() {
  usePageTitle('How It Works');
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:py-16">
      <header className="text-center">
        <p className="text-sm font-semibold tracking-widest text-primary uppercase">Legacy Vault</p>
        <h1 className="mt-3 font-serif text-4xl font-semibold tracking-tight sm:text-5xl">How It Works</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
          A private place for the messages, letters and records you want your children to have, and a careful way to share them when the
          time is right.
        </p>
      </header>

      <ol className="mt-12 flex flex-col gap-6">
        {STEPS.map(({ title, Icon, body, points }, index) => (
          <li key={title} className="flex gap-5 rounded-2xl border border-border bg-card p-6 shadow-sm">
            <div className="flex flex-col items-center">
              <span aria-hidden="true" className="grid h-12 w-12 shrink-0 place-items-center rounded-xl bg-primary/15 text-primary">
                <Icon className="h-6 w-6" />
              </span>
            </div>
            <div>
              <h2 className="font-serif text-2xl font-semibold">
                <span className="text-primary">Step {index + 1}.</span> {title}
              </h2>
              <p className="mt-2 leading-relaxed text-muted-foreground">{body}</p>
              <ul className="mt-3 list-disc space-y-1 pl-5 text-sm">
                {points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            </div>
          </li>
        ))}
      </ol>

      <section aria-labelledby="get-started" className="mt-12 rounded-3xl bg-accent p-8 text-center text-accent-foreground">
        <h2 id="get-started" className="font-serif text-2xl font-semibold">
          Ready when you are
        </h2>
        <p className="mx-auto mt-2 max-w-xl">Start your vault today, or ask a parent for read-only access to theirs.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/auth?mode=signup" className={buttonClasses({ size: 'lg' })}>
            Create Your Vault
            <ArrowRight aria-hidden="true" className="h-4 w-4" />
          </Link>
          <Link to="/request" className={buttonClasses({ variant: 'outline', size: 'lg' })}>
            Request Family Access
          </Link>
        </div>
      </section>
    </div>
  );
}
