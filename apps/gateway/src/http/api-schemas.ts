import { z } from 'zod';
import {
  changePlanBodySchema, checkoutSessionSchema, faqEntrySchema, localSessionSchema, saveFaqBodySchema, startCheckoutBodySchema, subscriptionViewSchema,
  accessKeySummarySchema, accessRequestPageSchema, accessRequestSchema, approveAccessRequestBodySchema, createAccessKeyBodySchema, issuedAccessKeySchema, keyDraftSchema,
  openedViewSessionSchema, redeemKeyBodySchema, submitAccessRequestBodySchema, submitAccessRequestReplySchema, viewerConsentSchema, viewerEntrySchema,
  viewerTokenGrantSchema, viewSessionBodySchema, viewSessionSummarySchema,
  courtDocumentSchema, courtFileLinkBodySchema, courtFileLinkSchema, courtUploadTicketSchema, evidenceEntrySummarySchema, evidencePublicKeysSchema,
  setKeyEvidenceBodySchema, signedEvidenceHeadSchema, startCourtUploadBodySchema,
  credentialsBodySchema, signUpBodySchema, deleteLetterReplySchema, errorBodySchema, healthCheckSchema, healthReportSchema, letterPageSchema, letterSchema, letterSummarySchema,
  addContactBodySchema, contactKeyReplySchema, deliveryCheckSchema, finalAccessSchema, deliverySettingsSchema, deliveryViewSchema, emergencyContactSchema, removeContactReplySchema, saveDeliverySettingsBodySchema,
  addTrusteeBodySchema, trusteeSchema, trusteeLinkBodySchema, trusteeAnswerBodySchema, trusteeViewSchema, trusteeLinkRequestBodySchema, trusteeLinkRequestReplySchema, trusteeReportBodySchema, openTrusteeReportReplySchema, vetoTrusteeReportReplySchema,
  setContactKeyBodySchema, checkInLinkBodySchema, checkInReplySchema, inactivityWatchSchema, saveInactivityBodySchema,
  playbackLinkSchema, portraitSchema, recordingSchema, reflectionSchema, retitleBodySchema, savePortraitBodySchema, reviseLetterBodySchema, saveReflectionBodySchema, sessionProbeSchema, sessionViewSchema, startUploadBodySchema,
  timelineEntrySchema, timelinePageSchema, updateProfileBodySchema, uploadTicketSchema, userProfileSchema, vaultStatsSchema, writeLetterBodySchema,
  adminOverviewSchema, changeEmailBodySchema, changePasswordBodySchema, changePasswordReplySchema, accountSessionSchema, accountSessionsSchema, forgotPasswordBodySchema,
  passkeyCeremonySchema, passkeyViewSchema, passkeyListSchema, addPasskeyBodySchema, renamePasskeyBodySchema, passkeyAssertionBodySchema, twoStepPasskeyOptionsBodySchema, twoStepPasskeyBodySchema,
  forgotPasswordReplySchema, recoveryCodesSchema, signInViewSchema, twoStepChallengeSchema, twoStepCodeBodySchema, twoStepDisableBodySchema, confirmIdentityBodySchema, accountDeletionBodySchema, accountDeletionStatusSchema, twoStepSetupSchema, twoStepSignInBodySchema, twoStepStatusSchema, emailChangeLinkBodySchema, emailChangeLinkReplySchema, verifyEmailBodySchema, verifyEmailReplySchema, resetPasswordBodySchema, resetPasswordReplySchema, sessionsEndedSchema, notificationPreferencesBodySchema, notificationPreferencesSchema,
  storageByDaySchema, adminBackupsSchema, backupRunSchema, backupStatusSchema, backupVerifyRunSchema, backupVerifyStatusSchema,
  communityPostSchema, communityStorySchema, deletePostReplySchema, likePostBodySchema, musicTrackSchema, publishPostBodySchema, storyReceiptSchema, submitStoryBodySchema,
  sealLetterBodySchema,
  deliveryReviewSchema, deliveryReviewSummarySchema, rejectDeliveryBodySchema,
  keyStatusBodySchema, keyStatusReplySchema,
  requestFormInfoSchema, requestSettingSchema,
  viewerDocumentLinkSchema, viewerMediaLinkSchema, viewerPosterLinkSchema,
} from '@lv/contracts';

import { viewSessionViewSchema } from '../view/view-session-view.schema.js';

// The component names of the OpenAPI document, one per contracts schema and side (what a client
// sends, `input`, or receives, `output`). Routes name their schemas (http/route.ts); the document
// refers to them by these names, which the SPA's generated client keeps as type names.

export const NAMED_SCHEMAS: ReadonlyArray<readonly [name: string, schema: z.ZodType, io: 'input' | 'output']> = [
  ['CredentialsDto', credentialsBodySchema, 'input'],
  // Sign-up's password rule (8+, not a common password) is stricter than sign-in's, which accepts old ones.
  ['SignUpDto', signUpBodySchema, 'input'],
  ['UpdateProfileDto', updateProfileBodySchema, 'input'],
  ['UserProfileDto', userProfileSchema, 'output'],
  ['SessionViewDto', sessionViewSchema, 'output'],
  ['SessionProbeDto', sessionProbeSchema, 'output'],
  ['VaultStatsDto', vaultStatsSchema, 'output'],
  ['HealthCheckDto', healthCheckSchema, 'output'],
  ['HealthReportDto', healthReportSchema, 'output'],
  ['ErrorBodyDto', errorBodySchema, 'output'],
  ['LetterSummaryDto', letterSummarySchema, 'output'],
  ['LetterDto', letterSchema, 'output'],
  ['LetterPageDto', letterPageSchema, 'output'],
  ['WriteLetterDto', writeLetterBodySchema, 'input'],
  ['ReviseLetterDto', reviseLetterBodySchema, 'input'],
  ['SealLetterDto', sealLetterBodySchema, 'input'],
  ['DeleteLetterReplyDto', deleteLetterReplySchema, 'output'],
  ['StartUploadDto', startUploadBodySchema, 'input'],
  ['RetitleDto', retitleBodySchema, 'input'],
  ['UploadTicketDto', uploadTicketSchema, 'output'],
  ['RecordingDto', recordingSchema, 'output'],
  ['PlaybackLinkDto', playbackLinkSchema, 'output'],
  ['ViewerMediaLinkDto', viewerMediaLinkSchema, 'output'],
  ['ViewerPosterLinkDto', viewerPosterLinkSchema, 'output'],
  ['ViewerDocumentLinkDto', viewerDocumentLinkSchema, 'output'],
  ['TimelineEntryDto', timelineEntrySchema, 'output'],
  ['TimelinePageDto', timelinePageSchema, 'output'],
  ['ReflectionDto', reflectionSchema, 'output'],
  ['SaveReflectionDto', saveReflectionBodySchema, 'input'],
  ['PortraitDto', portraitSchema, 'output'],
  ['EmergencyContactDto', emergencyContactSchema, 'output'],
  ['AddContactDto', addContactBodySchema, 'input'],
  ['SetContactKeyDto', setContactKeyBodySchema, 'input'],
  ['ContactKeyReplyDto', contactKeyReplySchema, 'output'],
  ['RemoveContactReplyDto', removeContactReplySchema, 'output'],
  ['DeliverySettingsDto', deliverySettingsSchema, 'output'],
  ['DeliveryViewDto', deliveryViewSchema, 'output'],
  ['DeliveryCheckDto', deliveryCheckSchema, 'output'],
  ['SaveDeliverySettingsDto', saveDeliverySettingsBodySchema, 'input'],
  ['InactivityWatchDto', inactivityWatchSchema, 'output'],
  ['SaveInactivityDto', saveInactivityBodySchema, 'input'],
  ['CheckInLinkDto', checkInLinkBodySchema, 'input'],
  ['CheckInReplyDto', checkInReplySchema, 'output'],
  ['TrusteeDto', trusteeSchema, 'output'],
  ['AddTrusteeDto', addTrusteeBodySchema, 'input'],
  ['TrusteeLinkDto', trusteeLinkBodySchema, 'input'],
  ['TrusteeAnswerDto', trusteeAnswerBodySchema, 'input'],
  ['TrusteeViewDto', trusteeViewSchema, 'output'],
  ['TrusteeLinkRequestDto', trusteeLinkRequestBodySchema, 'input'],
  ['TrusteeLinkRequestReplyDto', trusteeLinkRequestReplySchema, 'output'],
  ['TrusteeReportDto', trusteeReportBodySchema, 'input'],
  ['OpenTrusteeReportDto', openTrusteeReportReplySchema, 'output'],
  ['TrusteeReportVetoedDto', vetoTrusteeReportReplySchema, 'output'],
  ['DeliveryReviewSummaryDto', deliveryReviewSummarySchema, 'output'],
  ['DeliveryReviewDto', deliveryReviewSchema, 'output'],
  ['RejectDeliveryDto', rejectDeliveryBodySchema, 'input'],
  ['SavePortraitDto', savePortraitBodySchema, 'input'],
  ['StartCourtUploadDto', startCourtUploadBodySchema, 'input'],
  ['CourtUploadTicketDto', courtUploadTicketSchema, 'output'],
  ['CourtDocumentDto', courtDocumentSchema, 'output'],
  ['SetKeyEvidenceDto', setKeyEvidenceBodySchema, 'input'],
  ['CourtFileLinkRequestDto', courtFileLinkBodySchema, 'input'],
  ['CourtFileLinkDto', courtFileLinkSchema, 'output'],
  ['SignedEvidenceHeadDto', signedEvidenceHeadSchema, 'output'],
  ['EvidenceEntrySummaryDto', evidenceEntrySummarySchema, 'output'],
  ['EvidencePublicKeysDto', evidencePublicKeysSchema, 'output'],
  ['SubmitAccessRequestDto', submitAccessRequestBodySchema, 'input'],
  ['SubmitAccessRequestReplyDto', submitAccessRequestReplySchema, 'output'],
  ['AccessRequestDto', accessRequestSchema, 'output'],
  ['AccessRequestPageDto', accessRequestPageSchema, 'output'],
  ['ApproveAccessRequestDto', approveAccessRequestBodySchema, 'input'],
  ['IssuedAccessKeyDto', issuedAccessKeySchema, 'output'],
  ['KeyDraftDto', keyDraftSchema, 'output'],
  ['CreateAccessKeyDto', createAccessKeyBodySchema, 'input'],
  ['AccessKeySummaryDto', accessKeySummarySchema, 'output'],
  ['ViewSessionSummaryDto', viewSessionSummarySchema, 'output'],
  ['ViewerConsentDto', viewerConsentSchema, 'output'],
  ['RedeemKeyDto', redeemKeyBodySchema, 'input'],
  ['KeyStatusDto', keyStatusBodySchema, 'input'],
  ['KeyStatusReplyDto', keyStatusReplySchema, 'output'],
  ['RequestSettingDto', requestSettingSchema, 'input'],
  ['RequestSettingReplyDto', requestSettingSchema, 'output'],
  ['RequestFormInfoDto', requestFormInfoSchema, 'output'],
  ['ViewSessionSecretDto', viewSessionBodySchema, 'input'],
  ['OpenedViewSessionDto', openedViewSessionSchema, 'output'],
  ['ViewerTokenGrantDto', viewerTokenGrantSchema, 'output'],
  ['ViewerEntryDto', viewerEntrySchema, 'output'],
  ['FinalAccessDto', finalAccessSchema, 'output'],
  ['SubscriptionViewDto', subscriptionViewSchema, 'output'],
  ['StartCheckoutDto', startCheckoutBodySchema, 'input'],
  ['ChangePlanDto', changePlanBodySchema, 'input'],
  ['CheckoutSessionDto', checkoutSessionSchema, 'output'],
  ['LocalCheckoutSessionDto', localSessionSchema, 'output'],
  ['FaqEntryDto', faqEntrySchema, 'output'],
  ['SaveFaqDto', saveFaqBodySchema, 'input'],
  ['ChangeEmailDto', changeEmailBodySchema, 'input'],
  ['ChangePasswordDto', changePasswordBodySchema, 'input'],
  ['ChangePasswordReplyDto', changePasswordReplySchema, 'output'],
  ['ForgotPasswordDto', forgotPasswordBodySchema, 'input'],
  ['ForgotPasswordReplyDto', forgotPasswordReplySchema, 'output'],
  ['ResetPasswordDto', resetPasswordBodySchema, 'input'],
  ['ResetPasswordReplyDto', resetPasswordReplySchema, 'output'],
  ['EmailChangeLinkDto', emailChangeLinkBodySchema, 'input'],
  ['EmailChangeLinkReplyDto', emailChangeLinkReplySchema, 'output'],
  ['VerifyEmailDto', verifyEmailBodySchema, 'input'],
  ['VerifyEmailReplyDto', verifyEmailReplySchema, 'output'],
  ['AccountSessionDto', accountSessionSchema, 'output'],
  ['AccountSessionsDto', accountSessionsSchema, 'output'],
  ['SessionsEndedDto', sessionsEndedSchema, 'output'],
  ['TwoStepChallengeDto', twoStepChallengeSchema, 'output'],
  ['SignInReplyDto', signInViewSchema, 'output'],
  ['TwoStepSignInDto', twoStepSignInBodySchema, 'input'],
  ['TwoStepCodeDto', twoStepCodeBodySchema, 'input'],
  ['TwoStepDisableDto', twoStepDisableBodySchema, 'input'],
  ['ConfirmIdentityDto', confirmIdentityBodySchema, 'input'],
  ['AccountDeletionDto', accountDeletionBodySchema, 'input'],
  ['AccountDeletionStatusDto', accountDeletionStatusSchema, 'output'],
  ['TwoStepStatusDto', twoStepStatusSchema, 'output'],
  ['TwoStepSetupDto', twoStepSetupSchema, 'output'],
  ['PasskeyCeremonyDto', passkeyCeremonySchema, 'output'],
  ['PasskeyDto', passkeyViewSchema, 'output'],
  ['PasskeyListDto', passkeyListSchema, 'output'],
  ['AddPasskeyDto', addPasskeyBodySchema, 'input'],
  ['RenamePasskeyDto', renamePasskeyBodySchema, 'input'],
  ['PasskeyAssertionDto', passkeyAssertionBodySchema, 'input'],
  ['TwoStepPasskeyOptionsDto', twoStepPasskeyOptionsBodySchema, 'input'],
  ['TwoStepPasskeyDto', twoStepPasskeyBodySchema, 'input'],
  ['RecoveryCodesDto', recoveryCodesSchema, 'output'],
  ['NotificationPreferencesDto', notificationPreferencesSchema, 'output'],
  ['SaveNotificationPreferencesDto', notificationPreferencesBodySchema, 'input'],
  ['AdminOverviewDto', adminOverviewSchema, 'output'],
  ['StorageByDayDto', storageByDaySchema, 'output'],
  ['AdminBackupsDto', adminBackupsSchema, 'output'],
  ['BackupStatusDto', backupStatusSchema, 'output'],
  ['BackupRunDto', backupRunSchema, 'output'],
  ['BackupVerifyStatusDto', backupVerifyStatusSchema, 'output'],
  ['BackupVerifyRunDto', backupVerifyRunSchema, 'output'],
  ['MusicTrackDto', musicTrackSchema, 'output'],
  ['CommunityPostDto', communityPostSchema, 'output'],
  ['PublishPostDto', publishPostBodySchema, 'input'],
  ['LikePostDto', likePostBodySchema, 'input'],
  ['DeletePostReplyDto', deletePostReplySchema, 'output'],
  ['SubmitStoryDto', submitStoryBodySchema, 'input'],
  ['StoryReceiptDto', storyReceiptSchema, 'output'],
  ['CommunityStoryDto', communityStorySchema, 'output'],
  ['ViewSessionDto', viewSessionViewSchema, 'output'],
];

const names = new Map<z.ZodType, Partial<Record<'input' | 'output', string>>>();
for (const [name, schema, io] of NAMED_SCHEMAS) names.set(schema, { ...names.get(schema), [io]: name });

/**
 * A route's schema in the document: a reference to its name, or, for a plain value (the metrics'
 * text), the schema itself. An object shape without a name is a mistake caught at startup: the SPA's
 * generated client names its types after the components.
 */
export function apiSchemaRef(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const name = names.get(schema)?.[io];
  if (name) return { $ref: `#/components/schemas/${name}` };
  // A list of a named shape (an RPC's `z.array(recordingSchema)` reply) is a list of references.
  if (schema instanceof z.ZodArray) return { type: 'array', items: apiSchemaRef(schema.element as z.ZodType, io) };
  const inline = openApiSchema(schema, io);
  if (inline.type !== 'object' && inline.type !== 'array') return inline;
  throw new Error(`A route uses a schema with no ${io} name in the OpenAPI document: add it to NAMED_SCHEMAS (apps/gateway/src/http/api-schemas.ts).`);
}

/** A contracts zod schema as an OpenAPI 3.0 schema object. */
export function openApiSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'throw' }) as Record<string, unknown>;
  return json;
}

/** The named schema's document shape, for a component the document refers to. */
export function namedApiSchema(name: string): Record<string, unknown> | undefined {
  const row = NAMED_SCHEMAS.find(([rowName]) => rowName === name);
  return row ? openApiSchema(row[1], row[2]) : undefined;
}
