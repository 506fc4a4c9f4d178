// The operators' review queue of vault deliveries waiting for legal verification (issue 31), and an
// owner's delivery history for the ops CLI. Never vault contents: who, when, and the documents' metadata.
import { z } from 'zod';
import { RELATIONSHIP_OPTIONS } from './if-im-not-there.js';
import { TRUSTEE_REPORT_KINDS } from './trustees.js';

/** The longest reason an operator may give when refusing a verification. */
export const DELIVERY_REJECTION_REASON_MAX = 2000;

export const DeliveryReviewMessages = {
  reasonRequired: `Give a reason (1 to ${DELIVERY_REJECTION_REASON_MAX} characters).`,
} as const;

/** One delivery waiting for verification, as the queue lists it. */
export const deliveryReviewSummarySchema = z.object({
  owner_id: z.uuid(),
  owner_email: z.string().nullable().meta({ description: "The owner's address as access-keys knows it (null: none recorded)." }),
  release_id: z.string(),
  trigger: z.enum(['trustee-report', 'inactivity']),
  triggered_at: z.string(),
  not_before: z.string().nullable().meta({ description: "A trustee's report: the end of the owner's veto window." }),
  reported: z.object({ by: z.string(), relationship: z.enum(RELATIONSHIP_OPTIONS).nullable(), kind: z.enum(TRUSTEE_REPORT_KINDS), reported_at: z.string() }).nullable()
    .meta({ description: "Who reported the owner and when (null: the owner's inactivity, or an operator's report)." }),
});
export type DeliveryReviewSummary = z.infer<typeof deliveryReviewSummarySchema>;

/** One entry of a review's log: every opening and every decision, with the operator's id. */
export const deliveryReviewLogEntrySchema = z.object({
  action: z.enum(['opened', 'verified', 'rejected']),
  operator_id: z.string().nullable(),
  at: z.string(),
  reason: z.string().nullable(),
});

/** An opened review: the summary, the owner's trustees, the report's documents (metadata only) and the log. */
export const deliveryReviewSchema = deliveryReviewSummarySchema.extend({
  trustees: z.array(z.object({ name: z.string(), relationship: z.enum(RELATIONSHIP_OPTIONS), status: z.string() })),
  documents: z.array(z.object({ name: z.string(), content_type: z.string(), size_bytes: z.number().int(), added_at: z.string() }))
    .meta({ description: 'Documents the report holds (none yet: reports carry no documents today).' }),
  log: z.array(deliveryReviewLogEntrySchema),
});
export type DeliveryReview = z.infer<typeof deliveryReviewSchema>;

export const deliveryReviewPayloadSchema = z.object({ owner_id: z.uuid() });
export const rejectDeliveryBodySchema = z.object({
  reason: z.string({ error: DeliveryReviewMessages.reasonRequired }).trim().min(1, DeliveryReviewMessages.reasonRequired).max(DELIVERY_REJECTION_REASON_MAX, DeliveryReviewMessages.reasonRequired),
});
export const rejectDeliveryPayloadSchema = deliveryReviewPayloadSchema.extend(rejectDeliveryBodySchema.shape);

/** The ops CLI's `delivery:show`: the owner's delivery state and its stream, event by event. */
export const deliveryHistorySchema = z.object({
  owner_id: z.uuid(),
  status: z.enum(['none', 'awaiting-verification', 'waiting', 'cancelled', 'rejected', 'released']),
  release_id: z.string().nullable(),
  due_at: z.string().nullable(),
  triggered_at: z.string().nullable(),
  events: z.array(z.object({
    version: z.number().int(),
    type: z.string(),
    at: z.string(),
    actor: z.object({ kind: z.string(), id: z.string() }).nullable(),
    data: z.record(z.string(), z.unknown()),
  })),
});
export type DeliveryHistory = z.infer<typeof deliveryHistorySchema>;
