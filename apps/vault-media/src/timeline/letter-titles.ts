import { LettersRpc } from '@lv/contracts';
import type { RpcClient } from '@lv/platform/nest';
import type { LetterTitleLookup } from '../media.service.js';

/** Pages of the letters list read to find the titles of one timeline page (200 letters a page). */
const MAX_PAGES = 5;

/**
 * Letter titles come from the letters service at read time, with the caller's own token, because
 * letters never publishes words (issue 3): the timeline stores ids, counts and times only. A slow or
 * absent letters service leaves the titles at "Letter" instead of failing the timeline.
 */
export function lettersTitleLookup(rpc: RpcClient, timeoutMs = 1500): LetterTitleLookup {
  return async (accessToken, letterIds) => {
    const wanted = new Set(letterIds);
    const titles = new Map<string, string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES && titles.size < wanted.size; page++) {
      const reply = await rpc.call(LettersRpc.list, { limit: 200, ...(cursor ? { cursor } : {}) }, { accessToken, meta: { requestId: 'vault-media-timeline' } }, timeoutMs);
      for (const letter of reply.letters) if (wanted.has(letter.id)) titles.set(letter.id, letter.title);
      if (!reply.nextCursor) break;
      cursor = reply.nextCursor;
    }
    return titles;
  };
}
