import { REFLECTION_MAX, ReflectionMessages } from '@lv/contracts';
import { deciderSpecification } from '@lv/testing';
import { reflectionDecider, type ReflectionEvent } from './reflection.decider.js';

const spec = deciderSpecification(reflectionDecider);
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const stranger = '9b2e4c71-1d3f-4e8a-b5c6-7a8b9c0d1e2f';
const t0 = '2026-11-22T10:00:00.000Z';
const t1 = '2026-11-23T08:30:00.000Z';

const saved = (text: string, savedAt = t0): ReflectionEvent => ({ type: 'ReflectionSaved', data: { ownerId: owner, text, savedAt } });
const cleared: ReflectionEvent = { type: 'ReflectionCleared', data: { ownerId: owner, clearedAt: t1 } };
const save = (text: string, over: Partial<{ ownerId: string; now: string }> = {}) => ({ type: 'SaveReflection', ownerId: owner, text, now: t0, ...over }) as const;

describe('reflection decider', () => {
  it('saves the first reflection, trimmed', () => {
    spec.given([]).when(save('  A quiet morning.\n')).then([saved('A quiet morning.')]);
  });

  it('replaces the reflection with new words', () => {
    spec.given([saved('A quiet morning.')]).when(save('A loud evening.', { now: t1 })).then([saved('A loud evening.', t1)]);
  });

  it('records nothing when the same words are saved again (a retry, a double click, another tab)', () => {
    spec.given([saved('A quiet morning.')]).when(save(' A quiet morning. ')).then([]);
  });

  it('clears the reflection when a blank text is saved', () => {
    spec.given([saved('A quiet morning.')]).when(save('  \n\t', { now: t1 })).then([cleared]);
    spec.given([saved('A quiet morning.')]).when(save('', { now: t1 })).then([cleared]);
  });

  it('records nothing when there is nothing to clear', () => {
    spec.given([]).when(save('   ')).then([]);
    spec.given([saved('x'), cleared]).when(save('')).then([]);
  });

  it('saves again after a clear', () => {
    spec.given([saved('First.'), cleared]).when(save('Second.')).then([saved('Second.')]);
  });

  it('accepts 20,000 characters once trimmed and refuses one more, saving nothing', () => {
    spec.given([]).when(save(` ${'x'.repeat(REFLECTION_MAX)} `)).then([saved('x'.repeat(REFLECTION_MAX))]);
    spec.given([]).when(save('x'.repeat(REFLECTION_MAX + 1))).thenThrows('VALIDATION_FAILED');
    expect(() => reflectionDecider.decide(save('x'.repeat(REFLECTION_MAX + 1)), reflectionDecider.initialState()))
      .toThrow(expect.objectContaining({ message: ReflectionMessages.tooLong, details: { fields: { text: ReflectionMessages.tooLong } } }));
  });

  it('never writes into another user’s stream', () => {
    spec.given([saved('Mine.')]).when(save('Yours now.', { ownerId: stranger })).thenThrows('NOT_FOUND');
    spec.given([saved('Mine.')]).when(save('', { ownerId: stranger })).thenThrows('NOT_FOUND');
  });

  it('evolves: the text follows saves and clears, versions count events', () => {
    const state = [saved('One.'), saved('Two.'), cleared].reduce(reflectionDecider.evolve, reflectionDecider.initialState());
    expect(state).toEqual({ ownerId: owner, text: null, version: 3 });
    expect([saved('One.')].reduce(reflectionDecider.evolve, reflectionDecider.initialState())).toEqual({ ownerId: owner, text: 'One.', version: 1 });
  });
});
