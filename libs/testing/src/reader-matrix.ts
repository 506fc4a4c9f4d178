import { randomUUID } from 'node:crypto';
import { ClientNats } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import type { RpcRequest, SubscriptionTier } from '@lv/contracts';
import { signOperatorToken, VIEWER_SCOPES, type AccessTokenSigner, type ViewerScope } from '@lv/platform/auth';
import { toErrorBody } from '@lv/platform/errors';
import { scopedSubject, unscopedSubject } from '@lv/platform/messaging';
import { describeAccess, type RpcAccess, type RpcHandlerEntry } from '@lv/platform/nest';
import type { TestViewerIssuer } from './viewer-issuer.js';

export const MATRIX_CALLERS = [
  'anonymous',
  'owner',
  'another owner',
  'operator',
  'viewer of this vault',
  'viewer of this vault without the scope',
  'viewer of another vault',
  'expired viewer',
  'revoked viewer',
] as const;
export type MatrixCaller = (typeof MATRIX_CALLERS)[number];

const DENIAL_CODES = ['UNAUTHENTICATED', 'FORBIDDEN', 'SESSION_EXPIRED'];

export interface ReaderMatrixOptions {
  /** The running service's handlers: `app.get(RpcHandlerRegistry).handlers()`. */
  handlers: readonly RpcHandlerEntry[];
  natsUrl: string;
  /** Signs owners' and the operator's access tokens with the key the service trusts. */
  accessTokens: AccessTokenSigner;
  /** Signs viewer tokens with the key the service trusts, and revokes view sessions in its Redis. */
  viewers: TestViewerIssuer;
  /** The vault under test, and a second owner with data of their own. */
  ownerId: string;
  anotherOwnerId: string;
  /** Tier in the owners' tokens, so gated reads reach the data (default 'none'). */
  ownerTier?: SubscriptionTier;
  /** Payload per subject (unscoped), e.g. the id of one of the owner's letters. Default `{}`. */
  payloads?: Record<string, unknown>;
  /** Words only the owner's data holds: never in a reply to another owner or a viewer of another vault. */
  ownerSecrets: string[];
  /**
   * Subjects whose reply to the owner must show one of the secrets: proof that the payloads reach the
   * owner's data, so the leak check above is not vacuous.
   */
  ownerReads?: string[];
  timeoutMs?: number;
}

export interface MatrixRow {
  subject: string;
  handler: string;
  declared: string;
  caller: MatrixCaller;
  expected: string;
  outcome: string;
  allowed: boolean;
  leaked: boolean;
}

export interface ReaderMatrixResult {
  rows: MatrixRow[];
  /** Callers let through that the declaration refuses: must be empty. */
  unexpectedAllows: MatrixRow[];
  /** Callers refused (or refused with another code) that the declaration admits. */
  unexpectedDenials: MatrixRow[];
  /** Replies to another owner or another vault's viewer that contain the owner's words. */
  leaks: MatrixRow[];
  /** Owner reads in `ownerReads` that did not show the owner's words. */
  blindOwnerReads: MatrixRow[];
  /** Calls that ended in INTERNAL or no answer: a caller kind the handler does not cope with. */
  crashes: MatrixRow[];
  /** A plain-text table of every call, for a failing spec's message. */
  table(): string;
}

/**
 * Request-reply on a raw subject with a token, as the gateway sends it: for specs that set up data
 * for the matrix without depending on how a service's typed client is declared.
 */
export class RawRpc {
  private readonly client: ClientNats;

  constructor(natsUrl: string, private readonly timeoutMs = 5000) {
    this.client = new ClientNats({ servers: [natsUrl], name: 'raw-rpc' } as never);
  }

  async connect(): Promise<this> {
    await this.client.connect();
    return this;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /** Resolves with the reply; rejects with the service's error body ({ code, message }) or a transport error. */
  async call<T>(subject: string, payload: unknown, accessToken?: string): Promise<T> {
    const message: RpcRequest = { auth: { accessToken }, meta: { requestId: `raw-${randomUUID()}` }, payload };
    try {
      return await firstValueFrom(this.client.send<T>(scopedSubject(subject), message).pipe(timeout(this.timeoutMs)));
    } catch (error) {
      throw toErrorBody(error) ?? error;
    }
  }
}

/** Scopes a viewer holds in each viewer row: all, or all but those the handler names. */
function viewerScopes(access: RpcAccess | undefined, caller: MatrixCaller): ViewerScope[] {
  if (caller !== 'viewer of this vault without the scope') return [...VIEWER_SCOPES];
  const named = access?.access === 'read' ? access.readers.flatMap((r) => (typeof r === 'object' ? [r.scope] : [])) : [];
  return VIEWER_SCOPES.filter((scope) => !named.includes(scope));
}

/** What the declaration says a caller gets: 'allow' or the error code the guard must answer. */
export function expectedOutcome(access: RpcAccess | undefined, caller: MatrixCaller, scopes: readonly ViewerScope[]): string {
  if (!access) return 'FORBIDDEN';
  if (access.access === 'public') return 'allow';
  if (caller === 'anonymous') return 'UNAUTHENTICATED';
  if (caller === 'expired viewer' || caller === 'revoked viewer') return 'SESSION_EXPIRED';
  if (caller === 'owner' || caller === 'another owner') {
    const names = access.access === 'read' ? access.readers : access.writers;
    return names.includes('owner') ? 'allow' : 'FORBIDDEN';
  }
  if (caller === 'operator') {
    const names = access.access === 'read' ? access.readers : access.writers;
    return names.includes('operator') ? 'allow' : 'FORBIDDEN';
  }
  // Viewers: only reads, and only with a scope the declaration names.
  if (access.access !== 'read') return 'FORBIDDEN';
  return access.readers.some((r) => typeof r === 'object' && scopes.includes(r.scope)) ? 'allow' : 'FORBIDDEN';
}

/**
 * Calls every handler of a running service as every kind of caller, over NATS like the gateway, and
 * compares each outcome with the handler's declaration. A guard denial is UNAUTHENTICATED, FORBIDDEN
 * or SESSION_EXPIRED; anything else (a reply, VALIDATION_FAILED, NOT_FOUND...) got past the guard.
 * Tokens are minted per call (fresh session ids), so a handler that ends a session (sign-out)
 * cannot change the outcome of the next row.
 */
export async function runReaderMatrix(options: ReaderMatrixOptions): Promise<ReaderMatrixResult> {
  const client = new ClientNats({ servers: [options.natsUrl], name: 'reader-matrix' } as never);
  await client.connect();
  const rows: MatrixRow[] = [];
  const ownerToken = (userId: string) =>
    options.accessTokens.sign({ sub: userId, sid: randomUUID(), email: `${userId}@example.com`, tier: options.ownerTier ?? 'none', admin: false, kind: 'user' }, 300).token;

  const tokenFor = async (caller: MatrixCaller, scopes: ViewerScope[]): Promise<string | undefined> => {
    switch (caller) {
      case 'anonymous': return undefined;
      case 'owner': return ownerToken(options.ownerId);
      case 'another owner': return ownerToken(options.anotherOwnerId);
      case 'operator': return signOperatorToken(options.accessTokens, 'reader-matrix');
      case 'viewer of this vault':
      case 'viewer of this vault without the scope': return options.viewers.issue(options.ownerId, scopes).token;
      case 'viewer of another vault': return options.viewers.issue(options.anotherOwnerId, scopes).token;
      case 'expired viewer': return options.viewers.expired(options.ownerId, scopes).token;
      case 'revoked viewer': return (await options.viewers.revoked(options.ownerId, scopes)).token;
    }
  };

  try {
    for (const entry of options.handlers) {
      for (const pattern of entry.patterns) {
        const subject = unscopedSubject(pattern);
        for (const caller of MATRIX_CALLERS) {
          const scopes = viewerScopes(entry.access, caller);
          const expected = expectedOutcome(entry.access, caller, scopes);
          const message: RpcRequest = { auth: { accessToken: await tokenFor(caller, scopes) }, meta: { requestId: `matrix-${randomUUID()}` }, payload: options.payloads?.[subject] ?? {} };
          let outcome = 'OK';
          let reply: unknown;
          try {
            reply = await firstValueFrom(client.send(pattern, message).pipe(timeout(options.timeoutMs ?? 5000)));
          } catch (error) {
            const body = toErrorBody(error);
            outcome = body ? body.code : `ERROR ${(error as Error)?.message ?? String(error)}`;
          }
          const allowed = !DENIAL_CODES.includes(outcome);
          const text = reply === undefined ? '' : JSON.stringify(reply);
          const stranger = caller === 'another owner' || caller === 'viewer of another vault';
          rows.push({
            subject, handler: `${entry.controller}.${entry.method}`, declared: entry.access ? describeAccess(entry.access) : 'UNDECLARED', caller, expected, outcome, allowed,
            leaked: stranger && options.ownerSecrets.some((secret) => text.includes(secret)),
          });
          if (caller === 'owner' && options.ownerReads?.includes(subject) && !options.ownerSecrets.some((secret) => text.includes(secret))) {
            rows[rows.length - 1]!.outcome = `${outcome} (no owner data)`;
          }
        }
      }
    }
  } finally {
    await client.close();
  }

  const unexpectedAllows = rows.filter((r) => r.allowed && r.expected !== 'allow');
  const unexpectedDenials = rows.filter((r) => r.expected === 'allow' ? !r.allowed : !r.allowed && r.outcome !== r.expected);
  const leaks = rows.filter((r) => r.leaked);
  const blindOwnerReads = rows.filter((r) => r.outcome.endsWith('(no owner data)'));
  const crashes = rows.filter((r) => r.outcome.startsWith('INTERNAL') || r.outcome.startsWith('ERROR') || r.outcome.startsWith('SERVICE_UNAVAILABLE'));
  return {
    rows, unexpectedAllows, unexpectedDenials, leaks, blindOwnerReads, crashes,
    table: () => rows.map((r) => `${r.subject.padEnd(36)} ${r.declared.padEnd(34)} ${r.caller.padEnd(40)} expected ${r.expected.padEnd(16)} got ${r.outcome}${r.leaked ? ' LEAK' : ''}`).join('\n'),
  };
}
