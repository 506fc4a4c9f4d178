// Passkeys' words (issue 32), in a module of their own: only the pages that use passkeys bundle them.
/** Passkeys (WebAuthn): /settings adds, renames and removes them; /auth signs in with one; sudo mode accepts one. */
export const PasskeyMessages = {
  nameRequired: 'Give the passkey a name, for example “My laptop”.',
  nameTooLong: 'Keep the name to 60 characters or fewer.',
  /** PASSKEY_INVALID's text: an unknown, removed or another account's passkey, a wrong signature or origin, a lapsed or used challenge alike. */
  refused: 'That passkey could not be used. Try again, or use your password.',
  added: 'Passkey added. You can now sign in with it.',
  removed: 'Passkey removed.',
  renamed: 'Passkey renamed.',
  tooMany: 'Too many passkey attempts. Please wait a few minutes and try again.',
  limitReached: 'You have 20 passkeys, the most an account can hold. Remove one first.',
  notFound: 'No such passkey.',
  noPasskeys: 'You have no passkeys yet. Enter your password instead.',
  cancelled: 'The passkey request was cancelled or timed out.',
  unsupported: 'This browser cannot use passkeys.',
  /** The browser's SecurityError: the page is not on the passkeys' site (an IP address never is one). */
  wrongSite: 'Passkeys work only on the site’s own name, not on this address.',
} as const;

/** The most passkeys one account may hold: each is listed and offered at every second step. */
export const MAX_PASSKEYS_PER_ACCOUNT = 20;
/** How long a passkey ceremony's challenge works (WebAuthn's own default timeout is one minute). */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;
