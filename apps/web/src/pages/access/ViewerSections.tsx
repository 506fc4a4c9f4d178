import { useState } from 'react';
import { AccessMessages, IfImNotThereMessages, PORTRAIT_SECTIONS, VIEWER_EMPTY_TEXTS, VIEWER_TAB_LABELS, type Portrait, type ViewerEntry, type ViewSection } from '@lv/contracts';
import { fetchReleasedLetter, fetchViewerEntries } from '../../api/access.js';
import { fetchViewerFinals, fetchViewerPortrait } from '../../api/viewer.js';
import { LetterText } from '../letters/LetterDialogs.js';
import { EntryButton, OpenedEntry, ViewerLoading, ViewerMedia, ViewerPoster, ViewerReadError } from './ViewerItem.js';
import { useViewerRead, type ViewerAccess } from './use-viewer-read.js';

const listClass = 'divide-y divide-border overflow-hidden rounded-2xl border border-border bg-card';

interface SectionProps {
  access: ViewerAccess;
  section: ViewSection;
  scopes: readonly ViewSection[];
  /** A milestone key opens this one letter. */
  letterId?: string;
}

/**
 * One tab of the viewer: its list (spec: created time and one headline field), each entry opened in
 * place with a way back; Who I Am and If I'm Not There show their words above their media.
 */
export function ViewerSection({ access, section, scopes, letterId }: SectionProps) {
  if (!scopes.includes(section)) return <p>{AccessMessages.sectionNotShared}</p>;
  if (section === 'letters' && letterId) return <ReleasedLetter access={access} />;
  if (section === 'who-i-am') return <WhoIAmSection access={access} />;
  if (section === 'if-im-not-there') return <FinalsSection access={access} />;
  return <EntryList access={access} section={section} />;
}

function useEntries(access: ViewerAccess, section: ViewSection) {
  return useViewerRead(access, ['entries', section], (token, signal) => fetchViewerEntries(section, token, signal));
}

/** A tab's entries, and the one opened (null: the list). */
function useOpened() {
  return useState<ViewerEntry | null>(null);
}

function EntryList({ access, section }: { access: ViewerAccess; section: ViewSection }) {
  const entries = useEntries(access, section);
  const [opened, setOpened] = useOpened();
  if (entries.isPending || entries.refused) return <ViewerLoading />;
  if (entries.isError) return <ViewerReadError error={entries.error} />;
  if (opened) return <OpenedEntry access={access} entry={opened} backLabel={`Back to ${VIEWER_TAB_LABELS[section]}`} onBack={() => setOpened(null)} />;
  if (entries.data.length === 0) return <p>{VIEWER_EMPTY_TEXTS[section]}</p>;
  return (
    <ul aria-label={VIEWER_TAB_LABELS[section]} className={listClass}>
      {entries.data.map((entry) => <EntryButton key={entry.id} entry={entry} onOpen={setOpened} thumbnail={entry.poster ? <ViewerPoster access={access} entry={entry} /> : undefined} />)}
    </ul>
  );
}

/** A milestone key's one letter, released to its recipient, whole. */
function ReleasedLetter({ access }: { access: ViewerAccess }) {
  const letter = useViewerRead(access, ['released-letter'], (token, signal) => fetchReleasedLetter(token, signal));
  if (letter.isPending || letter.refused) return <ViewerLoading />;
  if (letter.isError) return <ViewerReadError error={letter.error} />;
  return (
    <article aria-labelledby="released-letter-title" className="space-y-3 rounded-2xl border border-border bg-card p-4 sm:p-6">
      <h2 id="released-letter-title" className="font-serif text-2xl font-semibold break-words">{letter.data.title}</h2>
      <LetterText content={letter.data.content} />
    </article>
  );
}

/** The owner's portrait as he wrote it, then the profile photo and his personal media. */
function WhoIAmSection({ access }: { access: ViewerAccess }) {
  const entries = useEntries(access, 'who-i-am');
  const portrait = useViewerRead(access, ['portrait'], (token, signal) => fetchViewerPortrait(token, signal));
  const [opened, setOpened] = useOpened();
  if (entries.isPending || portrait.isPending || entries.refused || portrait.refused) return <ViewerLoading />;
  if (entries.isError) return <ViewerReadError error={entries.error} />;
  if (portrait.isError) return <ViewerReadError error={portrait.error} />;
  if (opened) return <OpenedEntry access={access} entry={opened} backLabel="Back to Who I Am" onBack={() => setOpened(null)} />;
  if (entries.data.length === 0) return <p>{VIEWER_EMPTY_TEXTS['who-i-am']}</p>;
  const media = entries.data.filter((entry) => entry.kind === 'portrait-media');
  const photo = media.find((entry) => entry.headline === 'Profile photo');
  const personal = media.filter((entry) => entry !== photo);
  return (
    <div className="space-y-6">
      {photo && <div className="mx-auto max-w-xs"><ViewerMedia access={access} id={photo.id} title={photo.headline} /></div>}
      <PortraitWords portrait={portrait.data} />
      {personal.length > 0 && (
        <section aria-labelledby="viewer-personal-media" className="space-y-2">
          <h2 id="viewer-personal-media" className="font-serif text-xl font-semibold">Personal Media</h2>
          <ul aria-label="Personal Media" className={listClass}>
            {personal.map((entry) => <EntryButton key={entry.id} entry={entry} onOpen={setOpened} />)}
          </ul>
        </section>
      )}
    </div>
  );
}

function PortraitWords({ portrait }: { portrait: Portrait }) {
  const favourites = [['Music', portrait.favorite_music], ['Films', portrait.favorite_films]].filter(([, text]) => text);
  return (
    <div className="space-y-5">
      {portrait.about_me && (
        <PortraitPart id="viewer-about-me" title={PORTRAIT_SECTIONS.aboutMe}><LetterText content={portrait.about_me} /></PortraitPart>
      )}
      {portrait.personality_traits.length > 0 && (
        <PortraitPart id="viewer-traits" title={PORTRAIT_SECTIONS.personalityTraits}>
          <ul className="flex flex-wrap gap-2">{portrait.personality_traits.map((trait) => <li key={trait} className="rounded-full bg-muted px-3 py-1 text-sm">{trait}</li>)}</ul>
        </PortraitPart>
      )}
      {favourites.length > 0 && (
        <PortraitPart id="viewer-favorites" title={PORTRAIT_SECTIONS.favorites}>
          <dl className="space-y-2">
            {favourites.map(([label, text]) => (
              <div key={label}><dt className="text-sm font-medium text-muted-foreground">{label}</dt><dd className="whitespace-pre-wrap break-words">{text}</dd></div>
            ))}
          </dl>
        </PortraitPart>
      )}
      {portrait.core_values.length > 0 && (
        <PortraitPart id="viewer-values" title={PORTRAIT_SECTIONS.coreValues}>
          <ul className="list-disc space-y-1 pl-5">{portrait.core_values.map((value, i) => <li key={`${i}-${value}`} className="break-words">{value}</li>)}</ul>
        </PortraitPart>
      )}
    </div>
  );
}

function PortraitPart({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-2 rounded-2xl border border-border bg-card p-4 sm:p-6">
      <h2 id={id} className="font-serif text-xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * The final thoughts and messages: open when the owner allows a preview or the vault was released
 * (access-keys decides); otherwise their titles, and why they do not open yet.
 */
function FinalsSection({ access }: { access: ViewerAccess }) {
  const entries = useEntries(access, 'if-im-not-there');
  const finals = useViewerRead(access, ['finals'], (token, signal) => fetchViewerFinals(token, signal));
  const [opened, setOpened] = useOpened();
  if (entries.isPending || finals.isPending || entries.refused || finals.refused) return <ViewerLoading />;
  if (entries.isError) return <ViewerReadError error={entries.error} />;
  if (finals.isError) return <ViewerReadError error={finals.error} />;
  if (opened) return <OpenedEntry access={access} entry={opened} backLabel="Back to If I'm Not There" onBack={() => setOpened(null)} />;
  const messages = entries.data.filter((entry) => entry.kind === 'final-message');
  const thoughts = finals.data.final_thoughts;
  if (!thoughts && messages.length === 0) return <p>{VIEWER_EMPTY_TEXTS['if-im-not-there']}</p>;
  return (
    <div className="space-y-6">
      {thoughts && (
        <article aria-labelledby="viewer-final-thoughts" className="space-y-2 rounded-2xl border border-border bg-card p-4 sm:p-6">
          <h2 id="viewer-final-thoughts" className="font-serif text-xl font-semibold">{IfImNotThereMessages.finalThoughtsTitle}</h2>
          <LetterText content={thoughts.text} />
        </article>
      )}
      {messages.length > 0 && (
        <section aria-labelledby="viewer-final-messages" className="space-y-2">
          <h2 id="viewer-final-messages" className="font-serif text-xl font-semibold">Final messages</h2>
          {!finals.data.open && <p className="text-sm text-muted-foreground">These open when the vault is released, or when the owner allows a preview.</p>}
          <ul aria-label="Final messages" className={listClass}>
            {messages.map((entry) => <EntryButton key={entry.id} entry={entry} onOpen={setOpened} disabled={!finals.data.open} />)}
          </ul>
        </section>
      )}
    </div>
  );
}
