import type { RequestMeta, RequestSetting } from '@lv/contracts';
import { ownerOf, type Caller } from '@lv/platform/auth';
import { ownerActor } from '../owner-actor.js';
import type { StreamCommands } from '../stream-commands.js';
import { REQUEST_SETTING_STREAM_TYPE, requestSettingDecider, requestSettingStreamId } from './request-setting.decider.js';
import type { RequestsRepository } from './requests.repository.js';

export interface RequestLinkSettingDeps {
  requests: Pick<RequestsRepository, 'isOpen'>;
  commands: StreamCommands;
  now: () => Date;
}

/** The owner's switch for his request link: open until he closes it. */
export class RequestLinkSetting {
  constructor(private readonly deps: RequestLinkSettingDeps) {}

  async get(caller: Caller): Promise<RequestSetting> {
    return { open: await this.deps.requests.isOpen(ownerOf(caller).userId) };
  }

  /** Opens or closes the owner's request link (RequestSettingChanged on his own stream; the same choice again records nothing). */
  async save(caller: Caller, input: RequestSetting, meta: RequestMeta): Promise<RequestSetting> {
    const owner = ownerOf(caller);
    await this.deps.commands.run(requestSettingDecider, { streamId: requestSettingStreamId(owner.userId), streamType: REQUEST_SETTING_STREAM_TYPE }, {
      type: 'SetRequestsOpen', ownerId: owner.userId, open: input.open, now: this.deps.now().toISOString(),
    }, ownerActor(owner, meta));
    return this.get(caller);
  }
}
