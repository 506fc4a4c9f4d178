import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  LettersRpc, type DeleteLetterReply, type Letter, type LetterPage, type PayloadOf, type RebuildReply, type Reflection, type RequestMeta, type ServiceHealthReply,
  type VaultStatsContribution,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { pingDatabase } from '@lv/platform/database';
import { scopedSubject } from '@lv/platform/messaging';
import { CurrentCaller, OperatorOnly, PublicRpc, RpcHandler, RpcMeta, RpcPayload } from '@lv/platform/nest';
import { LettersService } from './letters.service.js';

// Payloads are validated by @RpcPayload() with the schemas declared in contracts (LettersRpc): services
// do not trust their callers. No payload names an owner: the owner is the verified caller.

/** Letters' request-reply API on NATS. Every handler is guarded unless marked @PublicRpc(). */
@Controller()
export class LettersController {
  constructor(private readonly letters: LettersService) {}

  @PublicRpc()
  @MessagePattern(scopedSubject(LettersRpc.health))
  async health(): Promise<ServiceHealthReply> {
    try {
      await pingDatabase(this.letters.orm.em);
      return { service: 'letters', status: 'up', checks: { postgres: { status: 'up' } } };
    } catch (error) {
      return { service: 'letters', status: 'down', checks: { postgres: { status: 'down', detail: (error as Error).message } } };
    }
  }

  @RpcHandler(LettersRpc.stats)
  stats(@CurrentCaller() caller: Caller): Promise<VaultStatsContribution> {
    return this.letters.stats(caller);
  }

  @RpcHandler(LettersRpc.list)
  list(@RpcPayload() page: PayloadOf<typeof LettersRpc.list>, @CurrentCaller() caller: Caller): Promise<LetterPage> {
    return this.letters.list(caller, page);
  }

  @RpcHandler(LettersRpc.get)
  get(@RpcPayload() { id }: PayloadOf<typeof LettersRpc.get>, @CurrentCaller() caller: Caller): Promise<Letter> {
    return this.letters.get(caller, id);
  }

  @RpcHandler(LettersRpc.write)
  write(@RpcPayload() letter: PayloadOf<typeof LettersRpc.write>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Letter> {
    return this.letters.write(caller, letter, meta);
  }

  @RpcHandler(LettersRpc.revise)
  revise(@RpcPayload() revision: PayloadOf<typeof LettersRpc.revise>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Letter> {
    return this.letters.revise(caller, revision, meta);
  }

  @RpcHandler(LettersRpc.delete)
  delete(@RpcPayload() { id }: PayloadOf<typeof LettersRpc.delete>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeleteLetterReply> {
    return this.letters.delete(caller, id, meta);
  }

  @RpcHandler(LettersRpc.reflectionGet)
  reflection(@CurrentCaller() caller: Caller): Promise<Reflection> {
    return this.letters.reflection(caller);
  }

  @RpcHandler(LettersRpc.reflectionSave)
  saveReflection(@RpcPayload() reflection: PayloadOf<typeof LettersRpc.reflectionSave>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Reflection> {
    return this.letters.saveReflection(caller, reflection, meta);
  }

  @OperatorOnly()
  @RpcHandler(LettersRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: await this.letters.rebuildProjections() };
  }
}
