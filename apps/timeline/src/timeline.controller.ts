import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import {
  AWAIT_ENTRY_GONE_MAX_MS, TIMELINE_PAGE_MAX, TimelineRpc, type AwaitEntryGoneReply, type RebuildReply, type RpcRequest,
  type TimelineEntry, type TimelinePage, type VaultStatsContribution,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { scopedSubject } from '@lv/platform/messaging';
import { CurrentCaller, OperatorOnly, parsePayload, Readers, viewerOf } from '@lv/platform/nest';
import { TimelineService } from './timeline.service.js';

// Payloads are checked here too (services do not trust their callers). No payload names a vault:
// the vault is the verified caller's.
const list = z.object({ limit: z.number().int().min(1).max(TIMELINE_PAGE_MAX).optional(), before: z.string().max(200).optional() });
const byId = z.object({ id: z.string().max(64) });
const awaitGone = z.object({ id: z.string().max(64), timeoutMs: z.number().int().min(0).max(AWAIT_ENTRY_GONE_MAX_MS).optional() });

/** The timeline's request-reply API on NATS. Every handler is guarded unless marked @PublicRpc(). */
@Controller()
export class TimelineController {
  constructor(private readonly timeline: TimelineService) {}

  @Readers('owner')
  @MessagePattern(scopedSubject(TimelineRpc.stats))
  stats(@CurrentCaller() caller: Caller): Promise<VaultStatsContribution> {
    return this.timeline.stats(caller);
  }

  @Readers('owner', viewerOf('timeline'))
  @MessagePattern(scopedSubject(TimelineRpc.list))
  list(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<TimelinePage> {
    return this.timeline.list(caller, parsePayload(list, message.payload ?? {}), { accessToken: message.auth?.accessToken, meta: message.meta });
  }

  @Readers('owner', viewerOf('timeline'))
  @MessagePattern(scopedSubject(TimelineRpc.entry))
  entry(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<TimelineEntry> {
    return this.timeline.entry(caller, parsePayload(byId, message.payload).id, { accessToken: message.auth?.accessToken, meta: message.meta });
  }

  @Readers('owner')
  @MessagePattern(scopedSubject(TimelineRpc.awaitEntryGone))
  awaitEntryGone(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<AwaitEntryGoneReply> {
    const { id, timeoutMs } = parsePayload(awaitGone, message.payload);
    return this.timeline.awaitEntryGone(caller, id, timeoutMs);
  }

  @OperatorOnly()
  @MessagePattern(scopedSubject(TimelineRpc.rebuildProjections))
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.timeline.rebuild() };
  }
}
