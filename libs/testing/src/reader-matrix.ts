import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { SubscriptionTier } from '@lv/contracts';
import { AccessTokenSigner, signOperatorToken, VIEWER_SCOPES } from '@lv/platform/auth';
import { unscopedSubject } from '@lv/platform/messaging';
import { describeAccess, RpcHandlerRegistry } from '@lv/platform/nest';
import { compareWithTable, formatAnswers, isCrash, isSectionViewer, MATRIX_CALLERS, type AnswerTable, type MatrixAnswer, type MatrixCaller, type TableComparison } from './answer-table.js';
import type { TestKeys } from './keys.js';
import { RawRpc } from './raw-rpc.js';
import { TestViewerIssuer } from './viewer-issuer.js';

export interface MatrixCallersOptions {
  /** The private half of the service's JWT_PUBLIC_KEY: owners', the admin's and the operator's tokens. */
  accessTokenKey: string;
  /** The key pair whose public half is the service's VIEWER_JWT_PUBLIC_KEY. */
  viewerKeys: TestKeys;
  /** The service's Redis, where view sessions are revoked. */
  redis: Redis;
  natsUrl?: string;
  timeoutMs?: number;
}

/**
 * The people the matrix calls as: two owners with a vault each, an admin, an operator, and viewers of
 * the first owner's vault. Also what specs use to set up those owners' data before the matrix runs.
 */
export class MatrixCallers {
  /** People for services that keep no accounts; identity's spec names the users it signed up instead. */
  readonly ownerId = randomUUID();
  readonly anotherOwnerId = randomUUID();
  readonly adminId = randomUUID();
  readonly viewers: TestViewerIssuer;
  private readonly signer: AccessTokenSigner;

  private constructor(options: MatrixCallersOptions, readonly rpc: RawRpc) {
    this.signer = new AccessTokenSigner(options.accessTokenKey);
    this.viewers = new TestViewerIssuer(options.redis, options.viewerKeys);
  }

  static async open(options: MatrixCallersOptions): Promise<MatrixCallers> {
    const rpc = await new RawRpc(options.natsUrl ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222', options.timeoutMs).connect();
    return new MatrixCallers(options, rpc);
  }

  /** A signed-in user's access token, a fresh session each call; his address verified, as an owner's usually is (what is refused unverified has its own specs). */
  tokenOf(userId: string, { tier = 'none', admin = false }: { tier?: SubscriptionTier; admin?: boolean } = {}): string {
    return this.signer.sign({ sub: userId, sid: randomUUID(), email: `${userId}@example.com`, tier, admin, emailVerified: true, kind: 'user' }, 600).token;
  }

  /** An operator's token, the kind the ops CLI signs. */
  operatorToken(): string {
    return signOperatorToken(this.signer, 'reader-matrix');
  }

  /** A token for one kind of caller; minted per call, so a handler that ends a session changes no later call. */
  async tokenFor(caller: MatrixCaller, people: MatrixPeople, tier: SubscriptionTier): Promise<string | undefined> {
    if (isSectionViewer(caller)) return this.viewers.issue(people.ownerId, [caller]).token;
    switch (caller) {
      case 'anonymous': return undefined;
      case 'owner': return this.tokenOf(people.ownerId, { tier });
      case 'other-owner': return this.tokenOf(people.anotherOwnerId, { tier });
      case 'admin': return this.tokenOf(people.adminId, { tier, admin: true });
      case 'operator': return this.operatorToken();
      case 'all-sections': return this.viewers.issue(people.ownerId, VIEWER_SCOPES).token;
      case 'other-vault': return this.viewers.issue(people.anotherOwnerId, VIEWER_SCOPES).token;
      case 'expired': return this.viewers.expired(people.ownerId).token;
      case 'revoked': return (await this.viewers.revoked(people.ownerId)).token;
    }
  }

  async close(): Promise<void> {
    await this.rpc.close();
  }
}

/** Whose tokens the owners' and the admin's columns carry. */
export interface MatrixPeople {
  ownerId: string;
  anotherOwnerId: string;
  adminId: string;
}

/** A running service and the callers to put to it. */
export interface MatrixTarget {
  app: Pick<INestApplicationContext, 'get'>;
  callers: MatrixCallers;
}

export interface ReaderMatrixOptions {
  /** The service's expected answers, written by hand (answerTable). */
  answers: AnswerTable;
  /** Payload per subject (unscoped), e.g. the id of one of the owner's letters. Default `{}`. */
  payloads?: Record<string, unknown>;
  /** Words only the owner's data holds: never in a reply to another owner or a viewer of another vault. */
  ownerSecrets: string[];
  /** Subjects whose reply to the owner must show one of the secrets, so the check above is not vacuous. */
  ownerReads?: string[];
  /** Tier in the owners' and the admin's tokens, so gated reads reach the data (default 'none'). */
  ownerTier?: SubscriptionTier;
  /** The owners and the admin, when they are not the callers' own (identity's users are made by signing up). */
  people?: MatrixPeople;
}

export interface ReaderMatrixResult extends TableComparison {
  answers: MatrixAnswer[];
  /** `subject caller` of each reply to another owner or another vault's viewer that holds the owner's words. */
  leaks: string[];
  /** Owner reads in `ownerReads` whose reply did not show the owner's words (or that no handler answers). */
  blindOwnerReads: string[];
  /** `subject caller: code` of each call that ended in a fault or no answer. */
  crashes: string[];
  /** The code one caller got from one subject. */
  answer: (subject: string, caller: MatrixCaller) => string | undefined;
  /** Every answer, in the form of the table the spec states. */
  table: () => string;
}

/** Who must see nothing of the owner's vault. */
const STRANGERS: readonly MatrixCaller[] = ['other-owner', 'other-vault'];

/**
 * Calls every handler of a running service (its RpcHandlerRegistry) as every kind of caller, over
 * NATS like the gateway, and compares each answer with the spec's table.
 */
export async function runReaderMatrix(target: MatrixTarget, options: ReaderMatrixOptions): Promise<ReaderMatrixResult> {
  const { callers } = target;
  const people = options.people ?? { ownerId: callers.ownerId, anotherOwnerId: callers.anotherOwnerId, adminId: callers.adminId };
  const answers: MatrixAnswer[] = [];
  const leaks: string[] = [];
  const blindOwnerReads: string[] = [];
  const showsSecret = (reply: unknown) => reply !== undefined && options.ownerSecrets.some((secret) => JSON.stringify(reply).includes(secret));

  for (const entry of target.app.get(RpcHandlerRegistry).handlers()) {
    for (const pattern of entry.patterns) {
      const subject = unscopedSubject(pattern);
      for (const caller of MATRIX_CALLERS) {
        const token = await callers.tokenFor(caller, people, options.ownerTier ?? 'none');
        const { code, reply } = await callers.rpc.answer(subject, options.payloads?.[subject] ?? {}, token);
        answers.push({ subject, caller, code, handler: `${entry.controller}.${entry.method}`, declared: entry.access ? describeAccess(entry.access) : 'UNDECLARED' });
        if (STRANGERS.includes(caller) && showsSecret(reply)) leaks.push(`${subject} ${caller}`);
        if (caller === 'owner' && options.ownerReads?.includes(subject) && !showsSecret(reply)) blindOwnerReads.push(`${subject}: ${code} without the owner's data`);
      }
    }
  }
  const answered = new Set(answers.map((a) => a.subject));
  for (const subject of options.ownerReads ?? []) if (!answered.has(subject)) blindOwnerReads.push(`${subject}: no handler answers it`);

  return {
    ...compareWithTable(options.answers, answers),
    answers, leaks, blindOwnerReads,
    crashes: answers.filter((a) => isCrash(a.code)).map((a) => `${a.subject} ${a.caller}: ${a.code}`),
    answer: (subject, caller) => answers.find((a) => a.subject === subject && a.caller === caller)?.code,
    table: () => formatAnswers(answers),
  };
}

/**
 * The tests every reader matrix spec runs on its result (computed once, in its beforeAll). A wrong
 * answer shows the whole answered table, to compare with the spec's own.
 */
export function readerMatrixTests(result: () => ReaderMatrixResult): void {
  it('has a table row for every subject the service answers, and a handler for every row', () => {
    const { unlisted, rowsWithoutHandler, table } = result();
    const complete = !unlisted.length && !rowsWithoutHandler.length;
    expect({ unlisted, rowsWithoutHandler, answered: complete ? '' : `\n${table()}\n` }).toEqual({ unlisted: [], rowsWithoutHandler: [], answered: '' });
  });

  it('answers every kind of caller of every handler as its table says', () => {
    const { wrongAnswers, table } = result();
    expect({ wrongAnswers, answered: wrongAnswers.length ? `\n${table()}\n` : '' }).toEqual({ wrongAnswers: [], answered: '' });
  });

  it('never shows the owner’s data to another owner or another vault’s viewer, and shows it to the owner', () => {
    const { leaks, blindOwnerReads } = result();
    expect({ leaks, blindOwnerReads }).toEqual({ leaks: [], blindOwnerReads: [] });
  });

  it('copes with every kind of caller: no fault and no silence', () => {
    expect(result().crashes).toEqual([]);
  });
}
