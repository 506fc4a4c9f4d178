// timeline's subjects: its RPC only (it publishes no events of its own).
import { healthRpc, rebuildRpc, rpc, statsRpc } from './rpc.js';
import {
  awaitEntryGonePayloadSchema, awaitEntryGoneReplySchema, timelineEntryPayloadSchema, timelineEntrySchema, timelinePageSchema, timelinePayloadSchema,
} from './timeline.schemas.js';

/** The vault timeline (timeline.ts); it publishes no events of its own. */
export const TimelineRpc = {
  health: healthRpc('timeline'),
  /** activeDays: the days the vault has entries on, every source together. */
  stats: statsRpc('timeline'),
  list: rpc('rpc.timeline.list', { payload: timelinePayloadSchema, reply: timelinePageSchema }),
  entry: rpc('rpc.timeline.entry', { payload: timelineEntryPayloadSchema, reply: timelineEntrySchema }),
  awaitEntryGone: rpc('rpc.timeline.await-entry-gone', { payload: awaitEntryGonePayloadSchema, reply: awaitEntryGoneReplySchema }),
  // Operator command (ops CLI): replays the letters and vault-media streams.
  rebuildProjections: rebuildRpc('timeline'),
} as const;
