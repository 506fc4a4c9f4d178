import { z } from 'zod';
import type { ServiceName } from './services.js';

/**
 * A request-reply subject, declared once: its subject string, the zod schema its payload must pass
 * (the handler validates with it, the caller is typed from it) and the shape of its reply. Callers
 * and handlers both take the declaration, so neither restates the other's types.
 */
export interface RpcDeclaration<P extends z.ZodType = z.ZodType, R extends RpcReply = RpcReply> {
  readonly subject: string;
  readonly payload: P;
  readonly reply: R;
}

declare const replyBrand: unique symbol;

/**
 * A reply that is a type only (no schema): for answers that never reach an HTTP client, so no
 * document needs their shape. Replies are never validated at runtime either way: the service that
 * answers is trusted to answer in the shape it declares, and the type checker holds it to it.
 */
export interface ReplyType<T> {
  readonly kind: 'reply-type';
  readonly [replyBrand]?: T;
}

export type RpcReply = z.ZodType | ReplyType<unknown>;

export function replyType<T>(): ReplyType<T> {
  return { kind: 'reply-type' };
}

export function rpc<const S extends string, P extends z.ZodType, R extends RpcReply>(subject: S, shape: { payload: P; reply: R }): RpcDeclaration<P, R> & { readonly subject: S } {
  if (!/^rpc\.[a-z-]+(\.[a-z-]+)+$/.test(subject)) throw new Error(`RPC subject ${JSON.stringify(subject)} must look like rpc.<service>.<name>`);
  return { subject, payload: shape.payload, reply: shape.reply };
}

/** What a caller may pass (before defaults and transforms). */
export type PayloadInput<D extends RpcDeclaration> = z.input<D['payload']>;
/** What a handler receives after validation. */
export type PayloadOf<D extends RpcDeclaration> = z.output<D['payload']>;
/** What the handler answers and the caller gets back. */
export type ReplyOf<D extends RpcDeclaration> = D['reply'] extends z.ZodType ? z.output<D['reply']> : D['reply'] extends ReplyType<infer T> ? T : never;

/** The payload of calls that take no arguments. Unknown keys are dropped, not refused, as before. */
export const emptyPayload = z.object({});

/** Answers every service gives: the shapes are in services.ts, the subjects derive from the name. */
export const serviceHealthReplySchema = z.object({
  service: z.string(),
  status: z.enum(['up', 'down']),
  checks: z.record(z.string(), z.object({ status: z.enum(['up', 'down']), detail: z.string().optional() })),
});
export type ServiceHealthReply = z.infer<typeof serviceHealthReplySchema>;

export const rebuildReplySchema = z.object({
  projections: z.array(z.object({ projection: z.string(), events: z.number().int(), ms: z.number() })),
});
export type RebuildReply = z.infer<typeof rebuildReplySchema>;

/**
 * What a service that counts towards the vault home answers on `rpc.<service>.stats`. The gateway
 * adds up whatever the listed services report; nothing is ever invented.
 */
export const vaultStatsContributionSchema = z.object({
  videosSaved: z.number().int().min(0).optional(),
  lettersWritten: z.number().int().min(0).optional(),
  /** 1 when the caller's reflection ("Thoughts & Feelings") is saved and not blank, else 0. */
  thoughtsSaved: z.number().int().min(0).max(1).optional(),
  /** ISO calendar days (YYYY-MM-DD, UTC) on which this service saved something for the caller. */
  activeDays: z.array(z.string()),
});
export type VaultStatsContribution = z.infer<typeof vaultStatsContributionSchema>;

/** `rpc.<service>.health`: public, answered by every service. */
export const healthRpc = (service: ServiceName) => rpc(`rpc.${service}.health`, { payload: emptyPayload, reply: serviceHealthReplySchema });
/** `rpc.<service>.stats`: the caller's VaultStatsContribution. */
export const statsRpc = (service: ServiceName) => rpc(`rpc.${service}.stats`, { payload: emptyPayload, reply: vaultStatsContributionSchema });
/** `rpc.<service>.op.rebuild-projections`: operator command, rebuild the read models from the event store. */
export const rebuildRpc = (service: ServiceName) => rpc(`rpc.${service}.op.rebuild-projections`, { payload: emptyPayload, reply: rebuildReplySchema });

export const erasureReplayReplySchema = z.object({ records: z.number().int(), erasedAgain: z.number().int() });
export type ErasureReplayReply = z.infer<typeof erasureReplayReplySchema>;
/** `rpc.<service>.op.replay-erasures`: operator command, erase again what the erasure journal holds (after a restore). */
export const replayErasuresRpc = (service: ServiceName) => rpc(`rpc.${service}.op.replay-erasures`, { payload: emptyPayload, reply: erasureReplayReplySchema });
/** The services that keep sealed streams and replay the erasure journal. */
export const ERASING_SERVICES = ['letters', 'vault-media', 'court-journal', 'access-keys', 'identity'] as const satisfies readonly ServiceName[];

/**
 * Services that contribute to the vault home's numbers answer `statsRpc(service)` with a
 * VaultStatsContribution. The gateway adds up whatever the listed services report; services join
 * this list when they exist (vault-media, letters, court-journal), so no number is ever invented.
 */
export const VAULT_STATS_PROVIDERS: readonly ServiceName[] = ['vault-media', 'letters', 'court-journal'];
