import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { z } from 'zod';
import { TITLES_BATCH_MAX, type TitlesReply } from '@lv/contracts';
import {
  LETTERS_PAGE_MAX, LettersRpc, REFLECTION_MAX, type DeleteLetterReply, type Letter, type LetterPage, type RebuildReply, type Reflection, type RpcRequest,
  type VaultStatsContribution,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { scopedSubject } from '@lv/platform/messaging';
import { CurrentCaller, OperatorOnly, parsePayload, Readers, viewerOf, Writers } from '@lv/platform/nest';
import { LettersService } from './letters.service.js';

// Payloads are checked here too (services do not trust their callers). Blank or over-long words are
// the decider's to refuse, with the shared messages; a malformed id is NOT_FOUND in the service.
// No payload names an owner: the owner is the verified caller.
const list = z.object({ limit: z.number().int().min(1).max(LETTERS_PAGE_MAX).optional(), cursor: z.string().max(200).optional() });
const byId = z.object({ id: z.string().max(64) });
const write = z.object({ id: z.uuid(), title: z.string(), content: z.string() });
const revise = z.object({ id: z.string().max(64), title: z.string(), content: z.string(), expectedVersion: z.number().int().min(0) });
// Length is the decider's to refuse (after trimming, with the shared message); this only bounds the payload.
const saveReflection = z.object({ text: z.string().max(REFLECTION_MAX * 4) });

/** Letters' request-reply API on NATS. Every handler is guarded unless marked @PublicRpc(). */
@Controller()
export class LettersController {
  constructor(private readonly letters: LettersService) {}

  @Readers('owner')
  @MessagePattern(scopedSubject(LettersRpc.stats))
  stats(@CurrentCaller() caller: Caller): Promise<VaultStatsContribution> {
    return this.letters.stats(caller);
  }

  @Readers('owner', viewerOf('letters'))
  @MessagePattern(scopedSubject(LettersRpc.list))
  list(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<LetterPage> {
    return this.letters.list(caller, parsePayload(list, message.payload ?? {}));
  }

  @Readers('owner', viewerOf('letters'))
  @MessagePattern(scopedSubject(LettersRpc.get))
  get(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<Letter> {
    return this.letters.get(caller, parsePayload(byId, message.payload).id);
  }

  @Writers('owner')
  @MessagePattern(scopedSubject(LettersRpc.write))
  write(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<Letter> {
    return this.letters.write(caller, parsePayload(write, message.payload), message.meta);
  }

  @Writers('owner')
  @MessagePattern(scopedSubject(LettersRpc.revise))
  revise(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<Letter> {
    return this.letters.revise(caller, parsePayload(revise, message.payload), message.meta);
  }

  @Writers('owner')
  @MessagePattern(scopedSubject(LettersRpc.delete))
  delete(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<DeleteLetterReply> {
    return this.letters.delete(caller, parsePayload(byId, message.payload).id, message.meta);
  }

  @Readers('owner')
  @MessagePattern(scopedSubject(LettersRpc.reflectionGet))
  reflection(@CurrentCaller() caller: Caller): Promise<Reflection> {
    return this.letters.reflection(caller);
  }

  @Writers('owner')
  @MessagePattern(scopedSubject(LettersRpc.reflectionSave))
  saveReflection(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<Reflection> {
    return this.letters.saveReflection(caller, parsePayload(saveReflection, message.payload), message.meta);
  }

  @OperatorOnly()
  @MessagePattern(scopedSubject(LettersRpc.rebuildProjections))
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.letters.rebuildProjections() };
  }

  /** The timeline's batch title lookup, with the reader's own token: only the caller's items answer. */
  @Readers('owner', viewerOf('timeline'))
  @MessagePattern(scopedSubject(LettersRpc.titles))
  titles(@Payload() message: RpcRequest, @CurrentCaller() caller: Caller): Promise<TitlesReply> {
    return this.letters.titles(caller, parsePayload(titlesRequest, message.payload).ids);
  }
}

// Ids are bounded here; which of them name the caller's items is the service's to decide.
const titlesRequest = z.object({ ids: z.array(z.string().max(64)).max(TITLES_BATCH_MAX) });
