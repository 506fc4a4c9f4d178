import { z } from 'zod';
import { safeText } from './text.schemas.js';
import { SUBSCRIPTION_TIERS } from './tiers.js';
import { SettingsMessages } from './identity.js';
import { TwoStepMessages } from './two-step.js';
import { AuthMessages, newPasswordProblem } from './validation.js';

// Profiles, sessions and their requests on the wire, as zod schemas (the types are inferred from
// them). Kept apart from identity.ts so the SPA, which imports only types from here, never bundles zod.

/** The profile every signed-in user has (owner-core spec, section 3: user_profiles). */
export const userProfileSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  full_name: z.string().nullable(),
  avatar_url: z.string().nullable().meta({ format: 'uri' }),
  created_at: z.iso.datetime(),
  subscription_tier: z.enum(SUBSCRIPTION_TIERS),
  ai_admin: z.boolean(),
  /** The account's address was proven by a link sent to it; until then nothing is e-mailed on the owner's behalf. */
  emailVerified: z.boolean(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** What the SPA receives from /api/auth/*: the session without the refresh token. */
export const sessionViewSchema = z.object({
  accessToken: z.string().meta({ description: 'RS256 access token; send it as `Authorization: Bearer <token>`.' }),
  /** Epoch milliseconds. */
  accessTokenExpiresAt: z.number().meta({ description: 'Epoch milliseconds.' }),
  profile: userProfileSchema,
  /** Sign-in only: the password fails today's rules (8+, not common), so the SPA asks for a new one. */
  passwordChangeRequired: z.literal(true).optional().meta({ description: 'Sign-in only: the password no longer meets the password rules; ask the user to change it.' }),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

/**
 * POST /api/auth/session, the SPA's session check: a browser with no session (or a refused cookie) is
 * an answer, `{ session: null }`, not a 401 the browser would log on every page a visitor opens.
 */
export const sessionProbeSchema = z.object({
  session: sessionViewSchema.nullable().meta({ description: 'The renewed session, or null when the browser has none.' }),
});
export type SessionProbe = z.infer<typeof sessionProbeSchema>;

/** What sign-in, sign-up and refresh return to the gateway. The refresh token never reaches the SPA's JavaScript: the gateway puts it in an httpOnly cookie. */
export const issuedSessionSchema = sessionViewSchema.extend({
  refreshToken: z.string(),
  refreshTokenExpiresAt: z.number(),
  sessionId: z.string(),
});
export type IssuedSession = z.infer<typeof issuedSessionSchema>;

// HTTP bodies, validated by the gateway with the spec's exact texts (owner-core spec, section 5).
export const PASSWORD_HTTP_MAX_LENGTH = 1024;
export const ProfileMessages = {
  fullNameType: 'Full name must be text',
  fullNameTooLong: 'Full name must be at most 120 characters',
  avatarUrl: 'Avatar URL must be an https:// address',
} as const;

/** POST /api/auth/sign-up and sign-in. Email trimmed and lower-cased; the password sent as typed. */
export const credentialsBodySchema = z.object({
  email: safeText({ error: AuthMessages.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, AuthMessages.emailRequired)
    .max(254, AuthMessages.emailInvalid)
    .pipe(z.email({ error: AuthMessages.emailInvalid }))
    .meta({ example: 'parent@example.com' }),
  // The sign-up checklist (8+, mixed case...) is guidance only: the rule is 6 characters.
  password: safeText({ error: AuthMessages.passwordRequired })
    .min(1, AuthMessages.passwordRequired)
    .min(6, AuthMessages.passwordTooShort)
    .max(PASSWORD_HTTP_MAX_LENGTH, `Password must be at most ${PASSWORD_HTTP_MAX_LENGTH} characters`),
});
export type Credentials = z.input<typeof credentialsBodySchema>;

/**
 * A new password (sign-up, change, reset): 8 characters at least, not only whitespace, not one character
 * repeated (newPasswordProblem); identity also refuses the listed common and breached passwords.
 */
const newPassword = safeText({ error: AuthMessages.passwordRequired })
  .max(PASSWORD_HTTP_MAX_LENGTH, `Password must be at most ${PASSWORD_HTTP_MAX_LENGTH} characters`)
  .superRefine((value, ctx) => {
    const problem = newPasswordProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** POST /api/auth/sign-up: as sign-in, with the rules of a new password. */
export const signUpBodySchema = credentialsBodySchema.extend({ password: newPassword });

/**
 * PATCH /api/me: only the two editable fields; anything else in the body (an id, an email, a tier)
 * is dropped, so a client can never touch more than its own name and picture. A blank name is null.
 */
export const updateProfileBodySchema = z.object({
  full_name: safeText({ error: ProfileMessages.fullNameType })
    .trim()
    .max(120, ProfileMessages.fullNameTooLong)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  avatar_url: z
    .url({ protocol: /^https$/, hostname: z.regexes.domain, error: ProfileMessages.avatarUrl })
    .max(2048, ProfileMessages.avatarUrl)
    .nullable()
    .optional(),
});
export type UpdateProfileRequest = z.input<typeof updateProfileBodySchema>;

// RPC payloads (rpc.identity.*, IdentityRpc in identity.messaging.ts). identity checks the words itself
// (validateCredentials, with the same messages); these only bound what may arrive.
export const credentialsPayloadSchema = z.object({ email: safeText(), password: safeText() });
export const refreshPayloadSchema = z.object({ refreshToken: safeText().min(1).max(200) });
export const signOutPayloadSchema = z.object({ refreshToken: safeText().max(200).optional() });
/** Strict: a payload naming anything else (an id, a tier) is refused, not silently trimmed. */
export const updateProfilePayloadSchema = z.object({ full_name: safeText().max(500).nullable().optional(), avatar_url: safeText().max(2000).nullable().optional() }).strict();
export const findUserPayloadSchema = z.object({ email: safeText().min(3).max(254) });
export const setAdminPayloadSchema = findUserPayloadSchema.extend({ admin: z.boolean() });
export const setTierPayloadSchema = findUserPayloadSchema.extend({ tier: z.enum(SUBSCRIPTION_TIERS) });
export const signOutReplySchema = z.object({ revoked: z.boolean() });
export type SignOutReply = z.infer<typeof signOutReplySchema>;


// Account settings (/settings). Changing the e-mail or the password needs the current password: a
// borrowed, unlocked browser must not be enough to take the account over.
const currentPassword = safeText({ error: SettingsMessages.currentPasswordRequired })
  .min(1, SettingsMessages.currentPasswordRequired)
  .max(PASSWORD_HTTP_MAX_LENGTH, SettingsMessages.currentPasswordWrong);

/** PUT /api/me/email */
export const changeEmailBodySchema = z.object({
  email: credentialsBodySchema.shape.email,
  currentPassword,
});

/** PUT /api/me/password: the same rules as a sign-up's password. */
export const changePasswordBodySchema = z.object({
  currentPassword,
  newPassword: signUpBodySchema.shape.password,
});

/** What a password change answers: the other sessions it ended (this one stays signed in). */
export const changePasswordReplySchema = z.object({ otherSessionsEnded: z.number().int().min(0) });
export type ChangePasswordReply = z.infer<typeof changePasswordReplySchema>;

/** GET and PUT /api/me/notifications: the four switches, all of them at once. */
export const notificationPreferencesBodySchema = z.object({
  emailNotifications: z.boolean({ error: 'Email notifications is on or off.' }),
  accessRequests: z.boolean({ error: 'Access requests is on or off.' }),
  systemUpdates: z.boolean({ error: 'System updates is on or off.' }),
  marketingEmails: z.boolean({ error: 'Marketing emails is on or off.' }),
}).strict();
export const notificationPreferencesSchema = notificationPreferencesBodySchema.extend({
  updated_at: z.iso.datetime().nullable().meta({ description: 'When they were last saved; null: the defaults, never saved.' }),
});
export type NotificationPreferencesView = z.infer<typeof notificationPreferencesSchema>;

export const changeEmailPayloadSchema = z.object({ email: safeText().max(300), currentPassword: safeText().max(PASSWORD_HTTP_MAX_LENGTH + 1) }).strict();
export const changePasswordPayloadSchema = z.object({ currentPassword: safeText().max(PASSWORD_HTTP_MAX_LENGTH + 1), newPassword: safeText().max(PASSWORD_HTTP_MAX_LENGTH + 1) }).strict();

// The admin dashboard (/admin): admins only, checked by identity against its own record of the flag.
export const ADMIN_USERS_LIMIT = 500;
/** GET /api/admin/users?q= : a case-insensitive piece of an e-mail or a full name. */
export const adminUsersQuerySchema = z.object({ q: safeText().trim().max(254, 'Search for at most 254 characters.').optional() });
export const adminOverviewSchema = z.object({
  /** Over every account, whatever the search. Free: tier missing or none. */
  counts: z.object({ total: z.number().int(), pro: z.number().int(), admins: z.number().int(), free: z.number().int() }),
  /** Newest first; at most ADMIN_USERS_LIMIT. */
  users: z.array(userProfileSchema),
  /** More accounts match than are listed: narrow the search. */
  truncated: z.boolean(),
  /** Accounts created per UTC day, oldest first. */
  signupsByDay: z.array(z.object({ day: z.string().meta({ example: '2026-11-26' }), count: z.number().int() })),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;

// Account recovery (Forgot password?) and the sessions list of /settings.

/** POST /api/auth/forgot-password: only an address; the answer never says whether it has an account. */
export const forgotPasswordBodySchema = z.object({ email: credentialsBodySchema.shape.email });
export const forgotPasswordReplySchema = z.object({ message: z.string() });
export type ForgotPasswordReply = z.infer<typeof forgotPasswordReplySchema>;

/** A reset link's token: `<reset id>.<256 random bits, base64url>`; only its SHA-256 is stored. */
const resetToken = safeText({ error: 'The reset link is incomplete.' }).min(1, 'The reset link is incomplete.').max(200, 'The reset link is incomplete.');

/** POST /api/auth/reset-password: the link's address and token, and the new password (the sign-up rules). */
export const resetPasswordBodySchema = z.object({
  email: credentialsBodySchema.shape.email,
  token: resetToken,
  newPassword,
});
export const resetPasswordReplySchema = z.object({
  message: z.string(),
  sessionsEnded: z.number().int().min(0).meta({ description: 'How many sessions of the account were signed out.' }),
});
export type ResetPasswordReply = z.infer<typeof resetPasswordReplySchema>;

export const forgotPasswordPayloadSchema = z.object({ email: safeText().max(300) }).strict();
export const resetPasswordPayloadSchema = z.object({ email: safeText().max(300), token: safeText().max(200), newPassword: safeText().max(PASSWORD_HTTP_MAX_LENGTH + 1) }).strict();

/** An e-mail change's link token (confirm or undo): `<id>.<256 random bits, base64url>`; only its SHA-256 is stored. */
const emailChangeToken = safeText({ error: 'The link is incomplete.' }).min(1, 'The link is incomplete.').max(200, 'The link is incomplete.');
/** POST /api/auth/confirm-email and /api/auth/undo-email-change: the token is the proof. */
export const emailChangeLinkBodySchema = z.object({ token: emailChangeToken });
export type EmailChangeLinkRequest = z.input<typeof emailChangeLinkBodySchema>;
export const emailChangeLinkReplySchema = z.object({
  message: z.string(),
  sessionsEnded: z.number().int().min(0).meta({ description: 'How many sessions of the account were signed out.' }),
});
export type EmailChangeLinkReply = z.infer<typeof emailChangeLinkReplySchema>;
export const emailChangeLinkPayloadSchema = z.object({ token: safeText().max(200) }).strict();

/** POST /api/auth/verify-email: the verification link's token is the proof; POST /api/me/verify-email/resend sends a new one. */
export const verifyEmailBodySchema = z.object({ token: emailChangeToken });
export const verifyEmailReplySchema = z.object({ message: z.string() });
export type VerifyEmailReply = z.infer<typeof verifyEmailReplySchema>;

/** One signed-in browser of the account (GET /api/me/sessions). */
export const accountSessionSchema = z.object({
  id: z.uuid(),
  device: z.string().meta({ description: 'Browser and system read from the user agent, e.g. "Firefox on Windows".' }),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  current: z.boolean().meta({ description: 'The session making this request.' }),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionsSchema = z.object({ sessions: z.array(accountSessionSchema) });
export type AccountSessions = z.infer<typeof accountSessionsSchema>;
export const sessionIdParamSchema = z.object({ sessionId: z.uuid({ error: 'Not a session id.' }) });
export const sessionsEndedSchema = z.object({ sessionsEnded: z.number().int().min(0) });
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>;

// Two-step sign-in (issue 32). The secret and the recovery codes reach the owner once, in the replies
// below; identity keeps the secret sealed and the codes hashed.

/** The password was right for an account with two-step on: no session yet, a short-lived challenge for the second step. */
export const twoStepChallengeSchema = z.object({
  twoStepRequired: z.literal(true),
  challenge: z.string().meta({ description: 'Opaque; send it back with the code to POST /api/auth/sign-in/two-step.' }),
  challengeExpiresAt: z.number().meta({ description: 'Epoch milliseconds.' }),
  /** The account has passkeys: one may be the second step instead of a code (POST /api/auth/sign-in/two-step/passkey). */
  passkeys: z.boolean().optional(),
});
export type TwoStepChallenge = z.infer<typeof twoStepChallengeSchema>;
/** What identity's sign-in answers: a session, or the second step's challenge. */
export const signInReplySchema = z.union([issuedSessionSchema, twoStepChallengeSchema]);
/** What POST /api/auth/sign-in answers the SPA. */
export const signInViewSchema = z.union([sessionViewSchema, twoStepChallengeSchema]);
export type SignInView = z.infer<typeof signInViewSchema>;

/** The code typed: an authenticator app's 6 digits, or a recovery code (`xxxxx-xxxxx`). */
const twoStepCode = safeText({ error: TwoStepMessages.codeRequired }).trim().min(1, TwoStepMessages.codeRequired).max(40, TwoStepMessages.codeWrong);
/** POST /api/auth/sign-in/two-step: the challenge of the password step, and a code from the app or a recovery code. */
export const twoStepSignInBodySchema = z.object({
  challenge: safeText({ error: TwoStepMessages.signInRefused }).min(1, TwoStepMessages.signInRefused).max(200, TwoStepMessages.signInRefused),
  code: twoStepCode,
});
export type TwoStepSignInRequest = z.input<typeof twoStepSignInBodySchema>;
export const twoStepSignInPayloadSchema = z.object({ challenge: safeText().max(200), code: safeText().max(40) }).strict();

/** POST /api/me/two-step/confirm and /recovery-codes: a current code from the app. */
export const twoStepCodeBodySchema = z.object({ code: twoStepCode });
export const twoStepCodePayloadSchema = z.object({ code: safeText().max(40) }).strict();
/** POST /api/me/two-step/disable: the password and a current code (or a recovery code). */
export const twoStepDisableBodySchema = z.object({ currentPassword, code: twoStepCode });
export const twoStepDisablePayloadSchema = z.object({ currentPassword: safeText().max(PASSWORD_HTTP_MAX_LENGTH + 1), code: safeText().max(40) }).strict();

/**
 * Sudo mode (POST /api/me/confirm-identity): the password again, when the last proof of this session is
 * older than SUDO_WINDOW_SECONDS and a sensitive action was refused SUDO_REQUIRED.
 */
export const confirmIdentityBodySchema = z.object({ currentPassword });
export const confirmIdentityPayloadSchema = z.object({ currentPassword: safeText().max(PASSWORD_HTTP_MAX_LENGTH + 1) }).strict();

/** GET /api/me/two-step */
export const twoStepStatusSchema = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int().min(0),
});
export type TwoStepStatus = z.infer<typeof twoStepStatusSchema>;
/** POST /api/me/two-step/setup: a new secret, waiting for its first code (the SPA draws the QR code itself). */
export const twoStepSetupSchema = z.object({
  secret: z.string().meta({ description: 'Base32, for typing into the app by hand.' }),
  otpauthUri: z.string().meta({ description: 'otpauth://totp/... for the QR code.' }),
});
export type TwoStepSetup = z.infer<typeof twoStepSetupSchema>;
/** Ten recovery codes, shown once (after the set-up is confirmed, or regenerated). */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/**
 * Deleting the account. POST /api/me/account-deletion (sudo mode) with the word typed; the owner keeps
 * the account with DELETE /api/me/account-deletion or POST /api/auth/keep-account (the e-mailed link's token).
 */
export const accountDeletionBodySchema = z.object({
  confirmation: safeText().max(100).meta({ description: 'The word DELETE, typed by the owner (letter case aside).' }),
});
export const accountDeletionPayloadSchema = z.object({ confirmation: safeText().max(100) }).strict();
/** GET /api/me/account-deletion, and the reply of each step: whether the account is scheduled for deletion, and when. */
export const accountDeletionStatusSchema = z.object({
  scheduled: z.boolean(),
  dueAt: z.string().nullable().meta({ description: 'When the account is erased, while it is scheduled.' }),
  message: z.string().meta({ description: 'What happened, in words for the owner (empty for GET).' }),
});
export type AccountDeletionStatus = z.infer<typeof accountDeletionStatusSchema>;
/** Operators' `account:erase-due`: deletions past their grace period erased now (the timer's fallback). */
export const eraseDueAccountsReplySchema = z.object({ erased: z.number().int().min(0) });
export type EraseDueAccountsReply = z.infer<typeof eraseDueAccountsReplySchema>;
