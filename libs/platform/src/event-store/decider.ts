import type { DomainEvent } from './types.js';

/**
 * A feature's business rules with no I/O: `decide` turns a command and the current state into
 * events (or throws a DomainError); `evolve` folds an event into state. Everything around them
 * (loading, appending, retrying) is generic.
 */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState(): State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
}

export function foldEvents<State, Event extends DomainEvent>(decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>, events: readonly Event[]): State {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}
