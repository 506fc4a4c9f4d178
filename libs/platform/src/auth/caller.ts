import { AccessMessages, VIEW_SECTIONS, type SubscriptionTier, type ViewSection } from '@lv/contracts';
import { DomainError } from '../errors/index.js';

/** A person signed in with their own account: the owner of their vault. */
export interface UserCaller {
  kind: 'user';
  userId: string;
  sessionId: string;
  email: string;
  tier: SubscriptionTier;
  isAdmin: boolean;
  /** The account's address is verified (the token's claim): until then nothing is e-mailed on its behalf. */
  emailVerified: boolean;
  /** Epoch milliseconds of the session's last proof of who he is (the token's `authAt`, else its issue time): sudo mode. */
  provedAt: number;
}

/** The ops CLI's token: no vault of its own, no person behind it. */
export interface OperatorCaller {
  kind: 'operator';
  userId: string;
  sessionId: string;
  email: string;
  tier: SubscriptionTier;
  isAdmin: boolean;
  emailVerified: boolean;
  provedAt: number;
}

/** Someone reading one owner's vault through a view session; never an account, never a writer. */
export interface ViewerCaller {
  kind: 'viewer';
  vaultOwnerId: string;
  viewSessionId: string;
  scopes: ViewerScope[];
  /** Epoch milliseconds at which the viewer token stops being accepted. */
  expiresAt: number;
  /** A key limited to one letter (a letter sealed for a milestone, released to its recipient): only that letter may be read. */
  letterId?: string;
  /** The key allows downloads of originals (the token's `dl` claim); false: view only. */
  mayDownload: boolean;
}

/** A caller holding an access token from identity. */
export type AccountCaller = UserCaller | OperatorCaller;

/** Who is calling, as every service sees it after verifying the token itself. */
export type Caller = AccountCaller | ViewerCaller;

/** What a viewer may be allowed to read: one scope per part of the vault, the viewer's tabs (contracts' VIEW_SECTIONS). */
export const VIEWER_SCOPES = VIEW_SECTIONS;
export type ViewerScope = ViewSection;

export const isViewerScope = (value: unknown): value is ViewerScope => typeof value === 'string' && (VIEWER_SCOPES as readonly string[]).includes(value);

/**
 * The vault a caller may read: a user's own, a viewer's owner's. Operators have no vault: a read that
 * needs one is refused for them (the handler's declaration normally refuses them first).
 */
export function vaultOwnerId(caller: Caller): string {
  if (caller.kind === 'user') return caller.userId;
  if (caller.kind === 'viewer') return caller.vaultOwnerId;
  throw new DomainError('FORBIDDEN');
}

/**
 * Whether the caller may read a section of the vault: a viewer only when his key opens it (the token's
 * scopes); an account is not limited by sections (its own vault, or none: vaultOwnerId refuses operators).
 */
export function readsSection(caller: Caller, section: ViewerScope): boolean {
  return caller.kind !== 'viewer' || caller.scopes.includes(section);
}

/**
 * The service's own check of a viewer's section, behind the handler's @Readers declaration (defence in
 * depth: a declaration written wrongly still shows a viewer nothing his key does not open). A viewer
 * without the section is FORBIDDEN with the viewer's words; owners pass.
 */
export function requireSection(caller: Caller, section: ViewerScope): void {
  if (!readsSection(caller, section)) throw new DomainError('FORBIDDEN', AccessMessages.sectionNotShared);
}

/**
 * The signed-in owner behind a write. The guard already refuses viewers on writes; this is the
 * service's own check, so a handler declared wrongly still cannot write for a viewer.
 */
export function ownerOf(caller: Caller): UserCaller {
  if (caller.kind !== 'user') throw new DomainError('FORBIDDEN');
  return caller;
}

/**
 * Sudo mode: the owner behind a sensitive action (issuing or revoking keys, trustees, delivery settings,
 * the export), who proved who he is within the window the product sets (SUDO_WINDOW_SECONDS); else
 * SUDO_REQUIRED, which the SPA answers by asking for the password again and retrying. Checked by the
 * service that owns the action.
 */
export function requireRecentProof(caller: Caller, windowSeconds: number, now: number = Date.now()): UserCaller {
  const user = ownerOf(caller);
  if (now - user.provedAt > windowSeconds * 1000) throw new DomainError('SUDO_REQUIRED');
  return user;
}

/** An account's token (user or operator), for the few paths that act for an account of either kind. */
export function accountOf(caller: Caller): AccountCaller {
  if (caller.kind === 'viewer') throw new DomainError('FORBIDDEN');
  return caller;
}

/**
 * The signed-in member behind a call to a gated feature, when `allowed` admits him (the product's
 * rule, e.g. contracts' allowsFeature): a viewer or an operator is FORBIDDEN, a member it refuses
 * UPGRADE_REQUIRED with `message`.
 */
export function requireFeature(caller: Caller, allowed: (member: UserCaller) => boolean, message: string): UserCaller {
  const user = ownerOf(caller);
  if (!allowed(user)) throw new DomainError('UPGRADE_REQUIRED', message);
  return user;
}

/** The ops CLI behind a call over a byte listener (music:add): anyone else is FORBIDDEN. */
export function operatorOf(caller: Caller): OperatorCaller {
  if (caller.kind !== 'operator') throw new DomainError('FORBIDDEN');
  return caller;
}
