// The envelopes every message travels in, whichever service sends it: a request's caller and
// metadata, and a published event's metadata.

/** How the caller travels with every request: services verify the token themselves. */
export interface CallerAuth {
  accessToken?: string;
}

export interface RequestMeta {
  requestId: string;
  /** Client address as the gateway saw it, for per-address limits. */
  ip?: string;
  userAgent?: string;
  /** The request's Origin header (or the gateway's own origin), recorded with a viewer's consent. */
  origin?: string;
  /** Sign-in only: the browser's device id, sent when its signed lv_device cookie proves an earlier sign-in to the same email. */
  device?: string;
  /**
   * Ties together everything one user action causes across services: the gateway's request id,
   * carried on by every call, event and job that follows (the RPC client fills it from the trace).
   */
  correlationId?: string;
}

/** The envelope of every request-reply message. */
export interface RpcRequest<T = unknown> {
  auth: CallerAuth;
  meta: RequestMeta;
  payload: T;
}

/** Envelope metadata carried by every stored and published event. */
export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  /** Who caused it; a family viewer is named by the view session, an anonymous requester not at all. */
  actor?: { kind: 'user' | 'operator' | 'system' | 'viewer'; id: string };
}

/** The JSON body of every event published on JetStream. */
export interface PublishedEvent<T = unknown> {
  eventId: string;
  type: string;
  streamId: string;
  version: number;
  occurredAt: string;
  data: T;
  metadata: EventMetadata;
}
