import type { SealedText } from './sealed-text.schemas.js';
import { formatCount } from './count-format.js';

// ---------------------------------------------------------------------------------------------
// Who I Am (access-family spec, "Who I Am"; entity who_i_am): the owner's portrait in his own words.
// One per user, kept by the letters (writing) service as the stream `portrait-{userId}`, the whole
// portrait sealed in its events with that stream's own key, like a letter's words. Shown to the owner
// on /whoiam and, by section name only, in a key holder's "Who I Am" tab.

/** The personality trait choices (spec: "choices: Kind, Funny, Creative, Patient, Adventurous, Thoughtful"). */
export const PERSONALITY_TRAITS = ['Kind', 'Funny', 'Creative', 'Patient', 'Adventurous', 'Thoughtful'] as const;
export type PersonalityTrait = (typeof PERSONALITY_TRAITS)[number];

// Limits the spec does not state, chosen so a whole portrait fits one NATS message with room to spare.
export const ABOUT_ME_MAX = 10_000;
export const FAVORITE_MAX = 2_000;
export const CORE_VALUE_MAX = 200;
export const CORE_VALUES_MAX = 20;

/** The portrait's sections, as a key holder's tab names them (spec 3: who I am entries show "section"). */
export const PORTRAIT_SECTIONS = {
  aboutMe: 'About Me',
  personalityTraits: 'Personality Traits',
  favorites: 'Favorites',
  coreValues: 'Core Values',
} as const;

export const PortraitMessages = {
  aboutMeTooLong: `About Me can be at most ${formatCount(ABOUT_ME_MAX)} characters.`,
  favoriteTooLong: `A favourite can be at most ${formatCount(FAVORITE_MAX)} characters.`,
  coreValueTooLong: `A core value can be at most ${CORE_VALUE_MAX} characters.`,
  tooManyCoreValues: `You can keep at most ${CORE_VALUES_MAX} core values.`,
  unknownTrait: `Choose personality traits from: ${PERSONALITY_TRAITS.join(', ')}.`,
  saved: 'Profile saved',
  saveFailed: 'Save failed.',
  loadFailed: 'Could not load your profile.',
} as const;

/** The portrait's words, in the clear: what the owner edits and the decider checks. */
export interface PortraitWords {
  aboutMe: string;
  personalityTraits: PersonalityTrait[];
  favoriteMusic: string;
  favoriteFilms: string;
  coreValues: string[];
}

/** A portrait as it arrives, before normalisePortrait has checked its traits. */
export type PortraitInput = Omit<PortraitWords, 'personalityTraits'> & { personalityTraits: readonly string[] };

export const EMPTY_PORTRAIT: PortraitWords = { aboutMe: '', personalityTraits: [], favoriteMusic: '', favoriteFilms: '', coreValues: [] };

const isTrait = (value: unknown): value is PersonalityTrait => typeof value === 'string' && (PERSONALITY_TRAITS as readonly string[]).includes(value);

/**
 * Normalises a portrait and names what is wrong with it, field by field: texts trimmed, traits in the
 * spec's order without repeats, core values trimmed with the empty ones dropped (spec: "empty values
 * ignored") and repeats removed. The service runs it again on what the gateway sent.
 */
export function normalisePortrait(input: PortraitInput): { portrait: PortraitWords; errors: Partial<Record<keyof PortraitWords, string>> } {
  const errors: Partial<Record<keyof PortraitWords, string>> = {};
  const aboutMe = input.aboutMe.trim();
  const favoriteMusic = input.favoriteMusic.trim();
  const favoriteFilms = input.favoriteFilms.trim();
  if (aboutMe.length > ABOUT_ME_MAX) errors.aboutMe = PortraitMessages.aboutMeTooLong;
  if (favoriteMusic.length > FAVORITE_MAX) errors.favoriteMusic = PortraitMessages.favoriteTooLong;
  if (favoriteFilms.length > FAVORITE_MAX) errors.favoriteFilms = PortraitMessages.favoriteTooLong;
  if (!input.personalityTraits.every(isTrait)) errors.personalityTraits = PortraitMessages.unknownTrait;
  const personalityTraits = PERSONALITY_TRAITS.filter((trait) => input.personalityTraits.includes(trait));
  const coreValues = [...new Set(input.coreValues.map((value) => value.trim()).filter((value) => value !== ''))];
  if (coreValues.some((value) => value.length > CORE_VALUE_MAX)) errors.coreValues = PortraitMessages.coreValueTooLong;
  else if (coreValues.length > CORE_VALUES_MAX) errors.coreValues = PortraitMessages.tooManyCoreValues;
  return { portrait: { aboutMe, personalityTraits, favoriteMusic, favoriteFilms, coreValues }, errors };
}

/** The sections a portrait has something in, in the page's order (a key holder's tab lists these). */
export function filledPortraitSections(portrait: PortraitWords): (keyof typeof PORTRAIT_SECTIONS)[] {
  const filled: (keyof typeof PORTRAIT_SECTIONS)[] = [];
  if (portrait.aboutMe) filled.push('aboutMe');
  if (portrait.personalityTraits.length) filled.push('personalityTraits');
  if (portrait.favoriteMusic || portrait.favoriteFilms) filled.push('favorites');
  if (portrait.coreValues.length) filled.push('coreValues');
  return filled;
}

// Events of the stream `portrait-{userId}`, as stored: the portrait sealed (as JSON) with the stream's
// key. None is published: nothing outside the letters service needs a word of it.
export interface PortraitSavedData { ownerId: string; portrait: SealedText; savedAt: string }
export type StoredPortraitEvent = { type: 'PortraitSaved'; data: PortraitSavedData };
