import { PERSONALITY_TRAITS, type Portrait, type PersonalityTrait, type SavePortraitRequest } from '@lv/contracts';

/** What the Who I Am form holds while the owner edits: core values as one box each, empty ones allowed. */
export interface PortraitForm {
  aboutMe: string;
  traits: PersonalityTrait[];
  favoriteMusic: string;
  favoriteFilms: string;
  coreValues: string[];
}

/** The form for a saved portrait: one empty core value box when there is none, so there is one to type in. */
export function formOf(portrait: Portrait): PortraitForm {
  return {
    aboutMe: portrait.about_me,
    traits: [...portrait.personality_traits],
    favoriteMusic: portrait.favorite_music,
    favoriteFilms: portrait.favorite_films,
    coreValues: portrait.core_values.length ? [...portrait.core_values] : [''],
  };
}

/** What Save Profile sends: empty core values are ignored (spec), traits in the page's order. */
export function requestOf(form: PortraitForm): SavePortraitRequest {
  return {
    about_me: form.aboutMe,
    personality_traits: PERSONALITY_TRAITS.filter((trait) => form.traits.includes(trait)),
    favorite_music: form.favoriteMusic,
    favorite_films: form.favoriteFilms,
    core_values: form.coreValues.map((value) => value.trim()).filter((value) => value !== ''),
  };
}

export function toggleTrait(traits: PersonalityTrait[], trait: PersonalityTrait): PersonalityTrait[] {
  return traits.includes(trait) ? traits.filter((t) => t !== trait) : [...traits, trait];
}

/** True when the form says something other than what the vault holds (the page warns of unsaved changes). */
export function isChanged(form: PortraitForm, saved: Portrait): boolean {
  return JSON.stringify(requestOf(form)) !== JSON.stringify(requestOf(formOf(saved)));
}
