import { z } from 'zod';
import { ABOUT_ME_MAX, CORE_VALUE_MAX, CORE_VALUES_MAX, FAVORITE_MAX, PERSONALITY_TRAITS, PortraitMessages } from './portrait.js';
import { safeText } from './text.schemas.js';

// The Who I Am portrait on the wire (GET and PUT /api/who-i-am; rpc.letters.portrait.get / .save).
// Field names are the spec's who_i_am entity's. Kept apart from portrait.ts so the SPA never bundles zod.

export const portraitSchema = z.object({
  about_me: z.string().max(ABOUT_ME_MAX),
  personality_traits: z.array(z.enum(PERSONALITY_TRAITS)),
  favorite_music: z.string().max(FAVORITE_MAX),
  favorite_films: z.string().max(FAVORITE_MAX),
  core_values: z.array(z.string().max(CORE_VALUE_MAX)).max(CORE_VALUES_MAX),
  updated_at: z.iso.datetime().nullable().meta({ description: 'When it was last saved; null when it never was.' }),
});
export type Portrait = z.infer<typeof portraitSchema>;

export const PortraitApiMessages = {
  text: 'Send this field as text.',
  list: 'Send this field as a list of texts.',
} as const;

const text = (max: number, tooLong: string) => safeText({ error: PortraitApiMessages.text }).trim().max(max, tooLong).default('');

/**
 * PUT /api/who-i-am: the whole portrait (Save Profile saves every field at once). Texts are trimmed,
 * empty core values dropped; a missing field saves as empty. Any other field (an owner, an image path)
 * is dropped: the owner is the verified caller.
 */
export const savePortraitBodySchema = z.object({
  about_me: text(ABOUT_ME_MAX, PortraitMessages.aboutMeTooLong),
  personality_traits: z.array(z.enum(PERSONALITY_TRAITS, { error: PortraitMessages.unknownTrait }), { error: PortraitApiMessages.list }).max(PERSONALITY_TRAITS.length * 2).default([]),
  favorite_music: text(FAVORITE_MAX, PortraitMessages.favoriteTooLong),
  favorite_films: text(FAVORITE_MAX, PortraitMessages.favoriteTooLong),
  core_values: z
    .array(safeText({ error: PortraitApiMessages.list }).trim().max(CORE_VALUE_MAX, PortraitMessages.coreValueTooLong), { error: PortraitApiMessages.list })
    .max(CORE_VALUES_MAX * 5, PortraitMessages.tooManyCoreValues)
    .transform((values) => values.filter((value) => value !== ''))
    .pipe(z.array(z.string()).max(CORE_VALUES_MAX, PortraitMessages.tooManyCoreValues))
    .default([]),
});
export type SavePortraitRequest = z.input<typeof savePortraitBodySchema>;

/** rpc.letters.portrait.save. The decider normalises and checks again; this only bounds the payload. */
export const savePortraitPayloadSchema = z.object({
  about_me: safeText().max(ABOUT_ME_MAX * 4),
  personality_traits: z.array(safeText().max(40)).max(PERSONALITY_TRAITS.length * 2),
  favorite_music: safeText().max(FAVORITE_MAX * 4),
  favorite_films: safeText().max(FAVORITE_MAX * 4),
  core_values: z.array(safeText().max(CORE_VALUE_MAX * 4)).max(CORE_VALUES_MAX * 5),
});
export type SavePortraitPayload = z.infer<typeof savePortraitPayloadSchema>;

/** A key holder's "Who I Am" tab: the sections the owner has filled, by name (spec 3), never their words. */
export const portraitSectionsSchema = z.array(z.object({ id: z.string(), section: z.string(), created_at: z.iso.datetime() }));
export type PortraitSections = z.infer<typeof portraitSectionsSchema>;
