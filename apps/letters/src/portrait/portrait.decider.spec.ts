import { ABOUT_ME_MAX, CORE_VALUES_MAX, EMPTY_PORTRAIT, filledPortraitSections, PortraitMessages, type PortraitInput, type PortraitWords } from '@lv/contracts';
import { deciderSpecification } from '@lv/testing';
import { portraitDecider, type PortraitEvent } from './portrait.decider.js';

const spec = deciderSpecification(portraitDecider);
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const stranger = '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';
const t0 = '2026-11-25T10:00:00.000Z';
const t1 = '2026-11-26T08:30:00.000Z';

const words = (over: Partial<PortraitWords> = {}): PortraitWords => ({ ...EMPTY_PORTRAIT, ...over });
const saved = (portrait: PortraitWords, savedAt = t0): PortraitEvent => ({ type: 'PortraitSaved', data: { ownerId: owner, portrait, savedAt } });
const save = (portrait: Partial<PortraitInput>, over: Partial<{ ownerId: string; now: string }> = {}) =>
  ({ type: 'SavePortrait', ownerId: owner, portrait: { ...EMPTY_PORTRAIT, ...portrait }, now: t0, ...over }) as const;

describe('portrait decider (Who I Am)', () => {
  it('saves the first portrait: texts trimmed, traits in the spec’s order, empty core values ignored', () => {
    spec
      .given([])
      .when(save({ aboutMe: '  A father of two.\n', personalityTraits: ['Patient', 'Kind', 'Patient'], favoriteMusic: ' Nick Drake ', coreValues: ['  honesty ', '', '   ', 'honesty', 'courage'] }))
      .then([saved(words({ aboutMe: 'A father of two.', personalityTraits: ['Kind', 'Patient'], favoriteMusic: 'Nick Drake', coreValues: ['honesty', 'courage'] }))]);
  });

  it('records nothing when the same portrait is saved again (a retry, a double click, another tab)', () => {
    spec.given([saved(words({ aboutMe: 'A father of two.' }))]).when(save({ aboutMe: ' A father of two. ', coreValues: [''] })).then([]);
  });

  it('replaces the whole portrait with the next save, empty fields included', () => {
    spec.given([saved(words({ aboutMe: 'A father of two.', favoriteFilms: 'Paddington' }))]).when(save({ favoriteFilms: 'Paddington 2' }, { now: t1 })).then([saved(words({ favoriteFilms: 'Paddington 2' }), t1)]);
  });

  it('refuses a trait the spec does not offer, and says which ones it does', () => {
    spec.given([]).when(save({ personalityTraits: ['Kind', 'Grumpy'] })).thenThrows('VALIDATION_FAILED');
    expect(() => portraitDecider.decide(save({ personalityTraits: ['Grumpy'] }), portraitDecider.initialState())).toThrow(PortraitMessages.unknownTrait);
  });

  it('refuses an About Me over the limit, and too many core values', () => {
    const decide = (portrait: Partial<PortraitInput>) => () => portraitDecider.decide(save(portrait), portraitDecider.initialState());
    expect(decide({ aboutMe: 'x'.repeat(ABOUT_ME_MAX + 1) })).toThrow(PortraitMessages.aboutMeTooLong);
    expect(decide({ coreValues: Array.from({ length: CORE_VALUES_MAX + 1 }, (_, i) => `value ${i}`) })).toThrow(PortraitMessages.tooManyCoreValues);
    spec.given([]).when(save({ aboutMe: 'x'.repeat(ABOUT_ME_MAX) })).then([saved(words({ aboutMe: 'x'.repeat(ABOUT_ME_MAX) }))]);
  });

  it('never writes into another user’s portrait stream', () => {
    spec.given([saved(words({ aboutMe: 'mine' }))]).when(save({ aboutMe: 'theirs' }, { ownerId: stranger })).thenThrows('NOT_FOUND');
  });
});

describe('filledPortraitSections', () => {
  it('lists the sections holding something, in the page’s order', () => {
    expect(filledPortraitSections(EMPTY_PORTRAIT)).toEqual([]);
    expect(filledPortraitSections(words({ coreValues: ['honesty'], favoriteFilms: 'Paddington' }))).toEqual(['favorites', 'coreValues']);
    expect(filledPortraitSections(words({ aboutMe: 'a', personalityTraits: ['Kind'], favoriteMusic: 'b', coreValues: ['c'] }))).toEqual(['aboutMe', 'personalityTraits', 'favorites', 'coreValues']);
  });
});
