import type { z } from 'zod';
import {
  changePlanBodySchema, checkoutSessionSchema, faqEntrySchema, localSessionSchema, saveFaqBodySchema, startCheckoutBodySchema, subscriptionViewSchema,
  accessKeySummarySchema, accessRequestPageSchema, accessRequestSchema, approveAccessRequestBodySchema, createAccessKeyBodySchema, issuedAccessKeySchema,
  openedViewSessionSchema, redeemKeyBodySchema, submitAccessRequestBodySchema, submitAccessRequestReplySchema, viewerConsentSchema, viewerEntrySchema,
  viewerTokenGrantSchema, viewSessionBodySchema, viewSessionSummarySchema,
  courtDocumentSchema, courtFileLinkBodySchema, courtFileLinkSchema, courtUploadTicketSchema, evidenceEntrySummarySchema, evidencePublicKeysSchema,
  setKeyEvidenceBodySchema, signedEvidenceHeadSchema, startCourtUploadBodySchema,
  credentialsBodySchema, deleteLetterReplySchema, errorBodySchema, healthCheckSchema, healthReportSchema, letterPageSchema, letterSchema, letterSummarySchema,
  addContactBodySchema, contactKeyReplySchema, deliveryCheckSchema, finalAccessSchema, deliverySettingsSchema, deliveryViewSchema, emergencyContactSchema, removeContactReplySchema, saveDeliverySettingsBodySchema,
  setContactKeyBodySchema, checkInLinkBodySchema, checkInReplySchema, inactivityWatchSchema, saveInactivityBodySchema,
  playbackLinkSchema, portraitSchema, recordingSchema, reflectionSchema, retitleBodySchema, savePortraitBodySchema, reviseLetterBodySchema, saveReflectionBodySchema, sessionViewSchema, startUploadBodySchema,
  timelineEntrySchema, timelinePageSchema, updateProfileBodySchema, uploadTicketSchema, userProfileSchema, vaultStatsSchema, writeLetterBodySchema,
  adminOverviewSchema, changeEmailBodySchema, changePasswordBodySchema, changePasswordReplySchema, notificationPreferencesBodySchema, notificationPreferencesSchema,
  storageByDaySchema,
  communityPostSchema, communityStorySchema, deletePostReplySchema, likePostBodySchema, musicTrackSchema, publishPostBodySchema, storyReceiptSchema, submitStoryBodySchema,
  sealLetterBodySchema,
  keyStatusBodySchema, keyStatusReplySchema,
  requestFormInfoSchema, requestSettingSchema,
  viewerDocumentLinkSchema, viewerMediaLinkSchema,
} from '@lv/contracts';

// Names for the OpenAPI document. Swagger's decorators (@ApiBody, @ApiOkResponse) name a body or a
// reply by a class; these classes are only that name. Their shape is the contracts' zod schema, which
// openapi.ts writes into the document (z.toJSONSchema), so the document is generated from the very
// schemas the gateway validates with and the services answer in: nothing here restates a field.

export class CredentialsDto {}
export class UpdateProfileDto {}
export class UserProfileDto {}
export class SessionViewDto {}
export class VaultStatsDto {}
export class HealthCheckDto {}
export class HealthReportDto {}
export class ErrorBodyDto {}
export class LetterSummaryDto {}
export class LetterDto {}
export class LetterPageDto {}
export class WriteLetterDto {}
export class ReviseLetterDto {}
export class SealLetterDto {}
export class DeleteLetterReplyDto {}
export class StartUploadDto {}
export class RetitleDto {}
export class UploadTicketDto {}
export class RecordingDto {}
export class PlaybackLinkDto {}
export class ViewerMediaLinkDto {}
export class ViewerDocumentLinkDto {}
export class TimelineEntryDto {}
export class TimelinePageDto {}
export class ReflectionDto {}
export class SaveReflectionDto {}
export class PortraitDto {}
export class FinalAccessDto {}
export class EmergencyContactDto {}
export class AddContactDto {}
export class SetContactKeyDto {}
export class ContactKeyReplyDto {}
export class RemoveContactReplyDto {}
export class DeliverySettingsDto {}
export class DeliveryViewDto {}
export class DeliveryCheckDto {}
export class SaveDeliverySettingsDto {}
export class InactivityWatchDto {}
export class SaveInactivityDto {}
export class CheckInLinkDto {}
export class CheckInReplyDto {}
export class SavePortraitDto {}
export class StartCourtUploadDto {}
export class CourtUploadTicketDto {}
export class CourtDocumentDto {}
export class SetKeyEvidenceDto {}
export class CourtFileLinkRequestDto {}
export class CourtFileLinkDto {}
export class SignedEvidenceHeadDto {}
export class EvidenceEntrySummaryDto {}
export class EvidencePublicKeysDto {}
export class SubmitAccessRequestDto {}
export class SubmitAccessRequestReplyDto {}
export class AccessRequestDto {}
export class AccessRequestPageDto {}
export class ApproveAccessRequestDto {}
export class IssuedAccessKeyDto {}
export class CreateAccessKeyDto {}
export class AccessKeySummaryDto {}
export class ViewSessionSummaryDto {}
export class ViewerConsentDto {}
export class RedeemKeyDto {}
export class KeyStatusDto {}
export class KeyStatusReplyDto {}
export class RequestSettingDto {}
export class RequestSettingReplyDto {}
export class RequestFormInfoDto {}
export class ViewSessionSecretDto {}
export class OpenedViewSessionDto {}
export class ViewerTokenGrantDto {}
export class ViewerEntryDto {}
export class MusicTrackDto {}
export class CommunityPostDto {}
export class PublishPostDto {}
export class LikePostDto {}
export class DeletePostReplyDto {}
export class SubmitStoryDto {}
export class StoryReceiptDto {}
export class CommunityStoryDto {}

/** One of the name classes above. */
export class SubscriptionViewDto {}
export class StartCheckoutDto {}
export class ChangePlanDto {}
export class CheckoutSessionDto {}
export class LocalCheckoutSessionDto {}
export class FaqEntryDto {}
export class SaveFaqDto {}
// Account settings and the admin dashboard.
export class ChangeEmailDto {}
export class ChangePasswordDto {}
export class ChangePasswordReplyDto {}
export class NotificationPreferencesDto {}
export class SaveNotificationPreferencesDto {}
export class AdminOverviewDto {}
export class StorageByDayDto {}

type DtoClass = new () => object;

/**
 * Which contracts schema each name stands for, and which side of it the document shows: what a
 * client sends (`input`, before trimming and defaults) or what it receives (`output`).
 */
export const DOCUMENTED_SCHEMAS: ReadonlyMap<DtoClass, { schema: z.ZodType; io: 'input' | 'output' }> = new Map<DtoClass, { schema: z.ZodType; io: 'input' | 'output' }>([
  [CredentialsDto, { schema: credentialsBodySchema, io: 'input' }],
  [UpdateProfileDto, { schema: updateProfileBodySchema, io: 'input' }],
  [UserProfileDto, { schema: userProfileSchema, io: 'output' }],
  [SessionViewDto, { schema: sessionViewSchema, io: 'output' }],
  [VaultStatsDto, { schema: vaultStatsSchema, io: 'output' }],
  [HealthCheckDto, { schema: healthCheckSchema, io: 'output' }],
  [HealthReportDto, { schema: healthReportSchema, io: 'output' }],
  [ErrorBodyDto, { schema: errorBodySchema, io: 'output' }],
  [LetterSummaryDto, { schema: letterSummarySchema, io: 'output' }],
  [LetterDto, { schema: letterSchema, io: 'output' }],
  [LetterPageDto, { schema: letterPageSchema, io: 'output' }],
  [WriteLetterDto, { schema: writeLetterBodySchema, io: 'input' }],
  [ReviseLetterDto, { schema: reviseLetterBodySchema, io: 'input' }],
  [SealLetterDto, { schema: sealLetterBodySchema, io: 'input' }],
  [DeleteLetterReplyDto, { schema: deleteLetterReplySchema, io: 'output' }],
  [StartUploadDto, { schema: startUploadBodySchema, io: 'input' }],
  [RetitleDto, { schema: retitleBodySchema, io: 'input' }],
  [UploadTicketDto, { schema: uploadTicketSchema, io: 'output' }],
  [RecordingDto, { schema: recordingSchema, io: 'output' }],
  [PlaybackLinkDto, { schema: playbackLinkSchema, io: 'output' }],
  [ViewerMediaLinkDto, { schema: viewerMediaLinkSchema, io: 'output' }],
  [ViewerDocumentLinkDto, { schema: viewerDocumentLinkSchema, io: 'output' }],
  [TimelineEntryDto, { schema: timelineEntrySchema, io: 'output' }],
  [TimelinePageDto, { schema: timelinePageSchema, io: 'output' }],
  [ReflectionDto, { schema: reflectionSchema, io: 'output' }],
  [SaveReflectionDto, { schema: saveReflectionBodySchema, io: 'input' }],
  [PortraitDto, { schema: portraitSchema, io: 'output' }],
  [EmergencyContactDto, { schema: emergencyContactSchema, io: 'output' }],
  [AddContactDto, { schema: addContactBodySchema, io: 'input' }],
  [SetContactKeyDto, { schema: setContactKeyBodySchema, io: 'input' }],
  [ContactKeyReplyDto, { schema: contactKeyReplySchema, io: 'output' }],
  [RemoveContactReplyDto, { schema: removeContactReplySchema, io: 'output' }],
  [DeliverySettingsDto, { schema: deliverySettingsSchema, io: 'output' }],
  [DeliveryViewDto, { schema: deliveryViewSchema, io: 'output' }],
  [DeliveryCheckDto, { schema: deliveryCheckSchema, io: 'output' }],
  [SaveDeliverySettingsDto, { schema: saveDeliverySettingsBodySchema, io: 'input' }],
  [InactivityWatchDto, { schema: inactivityWatchSchema, io: 'output' }],
  [SaveInactivityDto, { schema: saveInactivityBodySchema, io: 'input' }],
  [CheckInLinkDto, { schema: checkInLinkBodySchema, io: 'input' }],
  [CheckInReplyDto, { schema: checkInReplySchema, io: 'output' }],
  [SavePortraitDto, { schema: savePortraitBodySchema, io: 'input' }],
  [StartCourtUploadDto, { schema: startCourtUploadBodySchema, io: 'input' }],
  [CourtUploadTicketDto, { schema: courtUploadTicketSchema, io: 'output' }],
  [CourtDocumentDto, { schema: courtDocumentSchema, io: 'output' }],
  [SetKeyEvidenceDto, { schema: setKeyEvidenceBodySchema, io: 'input' }],
  [CourtFileLinkRequestDto, { schema: courtFileLinkBodySchema, io: 'input' }],
  [CourtFileLinkDto, { schema: courtFileLinkSchema, io: 'output' }],
  [SignedEvidenceHeadDto, { schema: signedEvidenceHeadSchema, io: 'output' }],
  [EvidenceEntrySummaryDto, { schema: evidenceEntrySummarySchema, io: 'output' }],
  [EvidencePublicKeysDto, { schema: evidencePublicKeysSchema, io: 'output' }],
  [SubmitAccessRequestDto, { schema: submitAccessRequestBodySchema, io: 'input' }],
  [SubmitAccessRequestReplyDto, { schema: submitAccessRequestReplySchema, io: 'output' }],
  [AccessRequestDto, { schema: accessRequestSchema, io: 'output' }],
  [AccessRequestPageDto, { schema: accessRequestPageSchema, io: 'output' }],
  [ApproveAccessRequestDto, { schema: approveAccessRequestBodySchema, io: 'input' }],
  [IssuedAccessKeyDto, { schema: issuedAccessKeySchema, io: 'output' }],
  [CreateAccessKeyDto, { schema: createAccessKeyBodySchema, io: 'input' }],
  [AccessKeySummaryDto, { schema: accessKeySummarySchema, io: 'output' }],
  [ViewSessionSummaryDto, { schema: viewSessionSummarySchema, io: 'output' }],
  [ViewerConsentDto, { schema: viewerConsentSchema, io: 'output' }],
  [RedeemKeyDto, { schema: redeemKeyBodySchema, io: 'input' }],
  [KeyStatusDto, { schema: keyStatusBodySchema, io: 'input' }],
  [KeyStatusReplyDto, { schema: keyStatusReplySchema, io: 'output' }],
  [RequestSettingDto, { schema: requestSettingSchema, io: 'input' }],
  [RequestSettingReplyDto, { schema: requestSettingSchema, io: 'output' }],
  [RequestFormInfoDto, { schema: requestFormInfoSchema, io: 'output' }],
  [ViewSessionSecretDto, { schema: viewSessionBodySchema, io: 'input' }],
  [OpenedViewSessionDto, { schema: openedViewSessionSchema, io: 'output' }],
  [ViewerTokenGrantDto, { schema: viewerTokenGrantSchema, io: 'output' }],
  [ViewerEntryDto, { schema: viewerEntrySchema, io: 'output' }],
  [FinalAccessDto, { schema: finalAccessSchema, io: 'output' }],
  [SubscriptionViewDto, { schema: subscriptionViewSchema, io: 'output' }],
  [StartCheckoutDto, { schema: startCheckoutBodySchema, io: 'input' }],
  [ChangePlanDto, { schema: changePlanBodySchema, io: 'input' }],
  [CheckoutSessionDto, { schema: checkoutSessionSchema, io: 'output' }],
  [LocalCheckoutSessionDto, { schema: localSessionSchema, io: 'output' }],
  [FaqEntryDto, { schema: faqEntrySchema, io: 'output' }],
  [SaveFaqDto, { schema: saveFaqBodySchema, io: 'input' }],
  [ChangeEmailDto, { schema: changeEmailBodySchema, io: 'input' }],
  [ChangePasswordDto, { schema: changePasswordBodySchema, io: 'input' }],
  [ChangePasswordReplyDto, { schema: changePasswordReplySchema, io: 'output' }],
  [NotificationPreferencesDto, { schema: notificationPreferencesSchema, io: 'output' }],
  [SaveNotificationPreferencesDto, { schema: notificationPreferencesBodySchema, io: 'input' }],
  [AdminOverviewDto, { schema: adminOverviewSchema, io: 'output' }],
  [StorageByDayDto, { schema: storageByDaySchema, io: 'output' }],
  [MusicTrackDto, { schema: musicTrackSchema, io: 'output' }],
  [CommunityPostDto, { schema: communityPostSchema, io: 'output' }],
  [PublishPostDto, { schema: publishPostBodySchema, io: 'input' }],
  [LikePostDto, { schema: likePostBodySchema, io: 'input' }],
  [DeletePostReplyDto, { schema: deletePostReplySchema, io: 'output' }],
  [SubmitStoryDto, { schema: submitStoryBodySchema, io: 'input' }],
  [StoryReceiptDto, { schema: storyReceiptSchema, io: 'output' }],
  [CommunityStoryDto, { schema: communityStorySchema, io: 'output' }],
]);
