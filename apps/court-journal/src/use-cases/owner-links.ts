import type { CourtFileGrant } from '@lv/contracts';
import type { RevokedSessions, UserCaller } from '@lv/platform/auth';
import type { OwnerLinkSigner } from '@lv/platform/links';
import { linkInvalid } from './court-answers.js';

/** The signed link purposes (one sub-key each: a file link never opens a bundle). */
export const FILE_LINK = 'file';
export const BUNDLE_LINK = 'bundle';

/** How the owner's links are signed and checked: the signer, and the sessions signed out since. */
export interface OwnerLinks {
  signer: OwnerLinkSigner;
  revokedSessions?: Pick<RevokedSessions, 'isRevoked'>;
}

/** A link and the binding (an httpOnly cookie) that ties it to the owner's session. */
export function grantLink(links: OwnerLinks, owner: UserCaller, purpose: string, path: string, resourceId: string, extra?: Record<string, string>): CourtFileGrant {
  const link = links.signer.signLink(purpose, path, owner.userId, resourceId, extra);
  return { ...link, binding: links.signer.signBinding(owner.userId, owner.sessionId) };
}

/** A presented link: intact, current, presented by its owner's session, and that session not signed out; else FORBIDDEN. */
export async function authoriseLink(links: OwnerLinks, purpose: string, resourceId: string, query: Record<string, unknown>, binding: string | undefined, extra: string[] = []) {
  const grant = links.signer.authorise(purpose, resourceId, query, binding, extra);
  if (typeof grant === 'string') throw linkInvalid();
  if (links.revokedSessions && (await links.revokedSessions.isRevoked(grant.sessionId))) throw linkInvalid();
  return grant;
}
