import type { Decider, DomainEvent } from '@lv/platform/event-store';

/**
 * Given/when/then for pure deciders (after emmett's DeciderSpecification):
 *   spec.given([events]).when(command).then([events])  or  .thenThrows(code)
 */
export function deciderSpecification<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(history: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, history.reduce((s, e) => decider.evolve(s, e), decider.initialState()));
          return {
            then(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenThrows(code: string) {
              let thrown: unknown;
              try { run(); } catch (error) { thrown = error; }
              expect(thrown).toBeDefined();
              expect((thrown as { code?: string }).code).toBe(code);
            },
          };
        },
      };
    },
  };
}
