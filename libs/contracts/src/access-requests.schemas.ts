import { z } from 'zod';

/** The owner's switch for his request link: open (the default) or closed. GET and PUT /api/access/request-setting. */
export const requestSettingSchema = z.object({ open: z.boolean({ error: 'Say whether requests are open (true or false).' }) });
export type RequestSetting = z.infer<typeof requestSettingSchema>;

/** GET /api/access/request-form/:ownerId (public): whether the link's vault takes requests, and whose it is. */
export const requestFormInfoSchema = z.object({
  open: z.boolean(),
  /** The owner's full name from their profile; null when they have not given one. */
  owner_name: z.string().nullable(),
});
export type RequestFormInfo = z.infer<typeof requestFormInfoSchema>;
export const requestFormPayloadSchema = z.object({ user_id: z.uuid({ error: 'This request link is not complete.' }) });

/** notifications' worker, before it e-mails the owner about a request: still pending, and who asked. */
export const requestNoticeStatePayloadSchema = z.object({ owner_id: z.uuid(), request_id: z.uuid() });
export interface RequestNoticeState {
  state: 'pending' | 'decided' | 'unknown';
  /** What the requester wrote, only while pending. */
  requester_name: string | null;
  relationship: string | null;
}

/** notifications' worker: where the owner's access-request e-mails go; null while his "Access Requests" switch is off. */
export const accessRequestMailToPayloadSchema = z.object({ user_id: z.uuid() });
export const accessRequestMailToReplySchema = z.object({ email: z.string().nullable(), full_name: z.string().nullable() });
