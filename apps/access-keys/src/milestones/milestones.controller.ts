import { Controller } from '@nestjs/common';
import { AccessKeysRpc, type PayloadOf } from '@lv/contracts';
import { PublicRpc, RpcHandler, RpcPayload } from '@lv/platform/nest';
import { LetterKeysService } from './letter-keys.service.js';

/** Milestone letters' keys on NATS. */
@Controller()
export class MilestonesController {
  constructor(private readonly letterKeys: LetterKeysService) {}

  /**
   * letters only (deploy/nats allows no one else to publish it), once a release has committed. The
   * recipient and the vault come from letters' own answer for that release id, never from the payload.
   */
  @PublicRpc()
  @RpcHandler(AccessKeysRpc.issueLetterKey)
  issueLetterKey(@RpcPayload() { letter_id, release_id }: PayloadOf<typeof AccessKeysRpc.issueLetterKey>): Promise<{ key_id: string | null }> {
    return this.letterKeys.issue(letter_id, release_id);
  }
}
