/**
 * A key's landing page (issue 28): the states a key can be in and what the page says of each. Zod-free,
 * so the SPA's access page loads it without the wire schemas (key-status.schemas.ts).
 */
export const KEY_STATES = ['active', 'expired', 'revoked'] as const;

/** The landing page's words for a key that cannot open the vault any more. */
export const KeyStatusMessages = {
  revoked: "This access key has been revoked by the vault's owner.",
  expired: 'This access key has expired. Please ask for a new one.',
  /** "Sam Taylor's vault"; a vault whose owner gave no name is just "a vault". */
  givenAccess: (ownerName: string | null) => (ownerName ? `You've been given access to ${ownerName}'s vault` : "You've been given access to a Legacy Vault"),
} as const;
