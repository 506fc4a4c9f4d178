import { Controller } from '@nestjs/common';
import {
  LettersRpc, type DeleteLetterReply, type Letter, type LetterPage, type PayloadOf, type Portrait, type PortraitSections, type ErasureReplayReply, type RebuildReply, type Reflection, type RequestMeta, type TitlesReply,
  type VaultStatsContribution, type MilestoneReleaseReply, type MilestonesDueReply,
} from '@lv/contracts';
import type { Caller } from '@lv/platform/auth';
import { ErasureJournalKeeper } from '@lv/platform/event-store';
import { CurrentCaller, OperatorOnly, PublicRpc, Readers, RpcHandler, RpcMeta, RpcPayload, viewerOf, Writers } from '@lv/platform/nest';
import { LettersService } from './letters.service.js';
import { CommunityService } from './community/community.service.js';

// Payloads are validated by @RpcPayload() with the schemas declared in contracts (LettersRpc): services
// do not trust their callers. No payload names an owner: the owner is the verified caller.

/** Letters' request-reply API on NATS. Every handler is guarded unless marked @PublicRpc(). */
@Controller()
export class LettersController {
  constructor(private readonly letters: LettersService, private readonly community: CommunityService, private readonly erasures: ErasureJournalKeeper) {}

  @Readers('owner')
  @RpcHandler(LettersRpc.stats)
  stats(@CurrentCaller() caller: Caller): Promise<VaultStatsContribution> {
    return this.letters.stats(caller);
  }

  @Readers('owner', viewerOf('letters'))
  @RpcHandler(LettersRpc.list)
  list(@RpcPayload() page: PayloadOf<typeof LettersRpc.list>, @CurrentCaller() caller: Caller): Promise<LetterPage> {
    return this.letters.list(caller, page);
  }

  @Readers('owner', viewerOf('letters'))
  @RpcHandler(LettersRpc.get)
  get(@RpcPayload() { id }: PayloadOf<typeof LettersRpc.get>, @CurrentCaller() caller: Caller): Promise<Letter> {
    return this.letters.get(caller, id);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.write)
  write(@RpcPayload() letter: PayloadOf<typeof LettersRpc.write>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Letter> {
    return this.letters.write(caller, letter, meta);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.revise)
  revise(@RpcPayload() revision: PayloadOf<typeof LettersRpc.revise>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Letter> {
    return this.letters.revise(caller, revision, meta);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.delete)
  delete(@RpcPayload() { id }: PayloadOf<typeof LettersRpc.delete>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<DeleteLetterReply> {
    return this.letters.delete(caller, id, meta);
  }

  @Readers('owner')
  @RpcHandler(LettersRpc.reflectionGet)
  reflection(@CurrentCaller() caller: Caller): Promise<Reflection> {
    return this.letters.reflection(caller);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.reflectionSave)
  saveReflection(@RpcPayload() reflection: PayloadOf<typeof LettersRpc.reflectionSave>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Reflection> {
    return this.letters.saveReflection(caller, reflection, meta);
  }

  /** The owner's portrait, or a key holder's of "Who I Am" (the viewer's Who I Am page). */
  @Readers('owner', viewerOf('who-i-am'))
  @RpcHandler(LettersRpc.portraitGet)
  portrait(@CurrentCaller() caller: Caller): Promise<Portrait> {
    return this.letters.portrait(caller);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.portraitSave)
  savePortrait(@RpcPayload() portrait: PayloadOf<typeof LettersRpc.portraitSave>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Portrait> {
    return this.letters.savePortrait(caller, portrait, meta);
  }

  /** A key holder's "Who I Am" tab: section names only, never the words. */
  @Readers('owner', viewerOf('who-i-am'))
  @RpcHandler(LettersRpc.portraitSections)
  portraitSections(@CurrentCaller() caller: Caller): Promise<PortraitSections> {
    return this.letters.portraitSections(caller);
  }

  @OperatorOnly()
  @RpcHandler(LettersRpc.rebuildProjections)
  async rebuild(): Promise<RebuildReply> {
    return { projections: [...(await this.letters.rebuildProjections()), ...(await this.community.rebuildProjections())] };
  }

  /** The operators' erasures:replay: what the erasure journal holds of this service, erased again (idempotent). */
  @OperatorOnly()
  @RpcHandler(LettersRpc.replayErasures)
  replayErasures(): Promise<ErasureReplayReply> {
    return this.erasures.replayNow();
  }

  /** The timeline's batch title lookup, with the reader's own token: only the caller's items answer. */
  @Readers('owner', viewerOf('timeline'))
  @RpcHandler(LettersRpc.titles)
  titles(@RpcPayload() { ids }: PayloadOf<typeof LettersRpc.titles>, @CurrentCaller() caller: Caller): Promise<TitlesReply> {
    return this.letters.titles(caller, ids);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.seal)
  seal(@RpcPayload() seal: PayloadOf<typeof LettersRpc.seal>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Letter> {
    return this.letters.seal(caller, seal, meta);
  }

  @Writers('owner')
  @RpcHandler(LettersRpc.unseal)
  unseal(@RpcPayload() { id }: PayloadOf<typeof LettersRpc.unseal>, @CurrentCaller() caller: Caller, @RpcMeta() meta: RequestMeta): Promise<Letter> {
    return this.letters.unseal(caller, id, meta);
  }

  /** access-keys only (deploy/nats allows no one else to publish it): answers for a committed release, by its unpublished id. */
  @PublicRpc()
  @RpcHandler(LettersRpc.milestoneRelease)
  milestoneRelease(@RpcPayload() { letter_id, release_id }: PayloadOf<typeof LettersRpc.milestoneRelease>): Promise<MilestoneReleaseReply> {
    return this.letters.milestoneRelease(letter_id, release_id);
  }

  /** The ops CLI's due check (`milestone:due`): releases only letters whose day has come. */
  @OperatorOnly()
  @RpcHandler(LettersRpc.milestonesDue)
  milestonesDue(): Promise<MilestonesDueReply> {
    return this.letters.milestonesDue();
  }
}
