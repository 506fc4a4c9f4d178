import type { z } from 'zod';
import type { PublishedEvent } from './envelopes.js';

/**
 * A published domain event, declared once: its subject and the zod schema of its `data`. The
 * service that publishes it is typed from it, and a consumer validates what it receives with it
 * and hands its handler the data as the schema says, so neither side restates the other's types.
 */
export interface EventDeclaration<S extends string = string, D extends z.ZodType = z.ZodType> {
  readonly subject: S;
  readonly data: D;
}

/** `<service>.<aggregate>.<event>.v<n>`: inside the service's stream (`<service>.>`), never under `rpc.`. */
const EVENT_SUBJECT = /^(?!rpc\.)[a-z-]+\.[a-z0-9-]+\.[a-z0-9-]+\.v[1-9][0-9]*$/;

export function event<const S extends string, D extends z.ZodType>(subject: S, data: D): EventDeclaration<S, D> {
  if (!EVENT_SUBJECT.test(subject)) throw new Error(`event subject ${JSON.stringify(subject)} must look like <service>.<aggregate>.<event>.v<n>`);
  return { subject, data };
}

/** The data a consumer receives (after validation, with the schema's defaults). */
export type EventData<E extends EventDeclaration> = z.output<E['data']>;
/** The data a publisher gives. */
export type EventDataInput<E extends EventDeclaration> = z.input<E['data']>;

/**
 * An event as a consumer of some declarations receives it: the subject it came on and its data, typed
 * by that subject's declaration. Over several declarations it is a union that `subject` discriminates.
 */
export type ReceivedEvent<E extends EventDeclaration> = E extends EventDeclaration<infer S, infer D> ? PublishedEvent<z.output<D>> & { readonly subject: S } : never;

/** What a publish policy returns for a declared event: its subject, and data the type checker holds to the schema. */
export function published<E extends EventDeclaration>(declaration: E, data: EventDataInput<E>): { subject: E['subject']; data: EventDataInput<E> } {
  return { subject: declaration.subject, data };
}

/**
 * Checks a received event against the declaration of the subject it came on: the typed event, or why
 * it cannot be handled (no declaration for the subject, or data its schema refuses).
 */
export function receiveEvent<E extends EventDeclaration>(
  declarations: readonly E[],
  subject: string,
  received: PublishedEvent,
): { ok: true; event: ReceivedEvent<E> } | { ok: false; reason: string } {
  const declaration = declarations.find((d) => d.subject === subject);
  if (!declaration) return { ok: false, reason: `no declaration for subject ${subject}` };
  const parsed = declaration.data.safeParse(received.data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`).join('; ');
    return { ok: false, reason: `data refused by the declaration of ${subject}: ${issues}` };
  }
  // The conditional type cannot follow a value picked at run time; the subject and the parse above are what make it true.
  return { ok: true, event: { ...received, data: parsed.data, subject: declaration.subject } as ReceivedEvent<E> };
}
