import { Link } from 'react-router-dom';
import { usePageTitle } from '../../lib/use-page-title.js';

const SECTIONS: { title: string; points: string[] }[] = [
  {
    title: 'What we keep',
    points: [
      'Your account: your email, your name if you give one, your plan, and a password we store only as an argon2id hash.',
      'What you put in your vault: letters, recordings, final messages, Who I Am, court documents and their journal, your emergency contacts and delivery settings.',
      'Who was let in: the access keys you issue (kept only as hashes), when each family member accepted the consent notice, and which parts of your vault they opened, and when.',
    ],
  },
  {
    title: 'How it is protected',
    points: [
      "The words of your letters, your reflection and your Who I Am portrait, your recordings' titles, your court documents' titles and descriptions, and your contacts' details are encrypted with a key of their own.",
      'Deleting a letter destroys its key, so no copy of its words can be read again, backups included.',
      'Recordings and documents are only ever served to you, through links signed for your session that expire within the hour.',
      'The events other parts of the service see carry ids, sizes and times, never your words.',
    ],
  },
  {
    title: 'Who can see it',
    points: [
      'You. The family members you give an access key to can read, never change, the parts of the vault that key names, for as long as it lasts; you can revoke it at any time.',
      "Your emergency contacts receive a key only when you switch it on, or when a vault delivery you set up in If I'm Not There happens.",
      'Administrators see account details (email, name, plan, sign-up date) to run the service, not the contents of your vault.',
    ],
  },
  {
    title: 'Emails',
    points: ['We email access keys you send and the notices your delivery settings ask for. Your Notification Settings choose the rest; marketing emails are off unless you turn them on.'],
  },
  {
    title: 'Your rights',
    points: [
      'Take a full copy of your vault at any time with Export Vault Data in Settings: a ZIP of every original, with a manifest of SHA-256 fingerprints.',
      'Correct your name and email in Settings. Delete any letter, recording or document from its page.',
      'If you cancel your subscription, your content stays accessible until the end of your billing period.',
    ],
  },
];

/** The privacy policy ("View Privacy Policy" in Settings): what the service keeps, how, and for whom. Public. */
export function PrivacyPage() {
  usePageTitle('Privacy Policy');
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <header>
        <h1 className="font-serif text-4xl font-semibold tracking-tight">Privacy Policy</h1>
        <p className="mt-2 text-muted-foreground">
          Legacy Vault keeps what a parent leaves his children. Nothing in it is sold, shared for advertising, or shown to anyone you have not let in.
        </p>
      </header>
      {SECTIONS.map((section) => (
        <section key={section.title} aria-labelledby={`privacy-${section.title}`}>
          <h2 id={`privacy-${section.title}`} className="text-xl font-semibold">
            {section.title}
          </h2>
          <ul className="mt-2 list-disc space-y-1.5 pl-5 text-muted-foreground">
            {section.points.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        </section>
      ))}
      <p className="text-sm text-muted-foreground">
        Everything you can change about your account and your data is in <Link to="/settings" className="text-primary underline-offset-4 hover:underline">Settings</Link>.
      </p>
    </article>
  );
}
