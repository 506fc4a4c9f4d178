/**
 * Asking for access from the owner's link (issue 28): the request page's and the owner's words, and the
 * limits. Zod-free, so the SPA's access pages load them without the wire schemas
 * (access-requests.schemas.ts); the owner's notice job is declared in queues.ts.
 */

/** Lookups of a request link's vault (GET /api/access/request-form/:ownerId) per client address a minute: a page load needs one. */
export const REQUEST_FORM_LOOKUPS_PER_MINUTE = 30;
/** Request e-mails to one owner an hour: past it the requests still wait in the app, only the e-mail is held back. */
export const ACCESS_REQUEST_NOTICES_PER_HOUR = 10;

/** The request page's and the owner's link card's words (/request without a link says AccessMessages.missingOwner). */
export const RequestLinkMessages = {
  /** The owner turned requests off (the form is not offered; a request sent anyway is refused with it). */
  requestsClosed: 'This vault is not taking access requests at the moment. Please contact its owner directly.',
  /** Above the form opened from an owner's link. */
  askingOwner: (ownerName: string | null) => (ownerName ? `You are asking ${ownerName} for access to their vault.` : 'You are asking for access to a Legacy Vault.'),
  /** The owner's link card on /access-control. */
  linkTitle: 'Your request link',
  linkExplanation:
    'Send this link (or let them scan the code) to a child or family member. They fill in a short form; you get an e-mail and the request appears here. Nothing is shared until you approve it and choose what their key opens.',
  requestsSwitch: 'Accept access requests',
  requestsOff: 'Requests are turned off: the link shows a notice instead of the form.',
  linkCopied: 'Request link copied',
} as const;
