import { SERVICES, streamNameFor, type ServiceName } from '@lv/contracts';

/**
 * Several stacks can share one NATS server (a developer's `npm start` and the test suite's stack,
 * or parallel integration specs). STACK_ID, when set, prefixes every subject, stream and durable
 * consumer so they never see each other's traffic. Production leaves it empty.
 */
export function stackPrefix(stackId = process.env.STACK_ID ?? ''): string {
  return stackId ? `${checkStackId(stackId)}.` : '';
}

/**
 * A stack id becomes one subject token and part of stream and consumer names, so it is limited to
 * letters, digits, `_` and `-`: a `.` would add tokens, `*`/`>` would turn every subject into a
 * wildcard that captures other stacks' traffic, and names that differ only in such characters would
 * share a stream. It must not be a service name either: `identity.identity.…` would fall inside an
 * unscoped stack's `identity.>` stream on the same server.
 */
function checkStackId(stackId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(stackId) || (SERVICES as readonly string[]).includes(stackId)) {
    throw new Error(`Invalid STACK_ID ${JSON.stringify(stackId)}: use letters, digits, "_" or "-", and not a service name`);
  }
  return stackId;
}

/** A subject, or an RPC declaration (contracts' rpc.ts), with the stack's prefix. */
export function scopedSubject(subject: string | { readonly subject: string }, stackId?: string): string {
  return `${stackPrefix(stackId)}${typeof subject === 'string' ? subject : subject.subject}`;
}

export function scopedStreamName(service: ServiceName, stackId = process.env.STACK_ID ?? ''): string {
  const base = streamNameFor(service);
  return stackId ? `${base}_${checkStackId(stackId)}` : base;
}

export function scopedConsumerName(name: string, stackId = process.env.STACK_ID ?? ''): string {
  return stackId ? `${name}_${checkStackId(stackId)}` : name;
}

/** Strips the stack prefix from a received subject so handlers see the registry's names. */
export function unscopedSubject(subject: string, stackId?: string): string {
  const prefix = stackPrefix(stackId);
  return prefix && subject.startsWith(prefix) ? subject.slice(prefix.length) : subject;
}

/** NATS subject matching: `*` matches one token, a final `>` one or more. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length || (p[i] !== '*' && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}
