/** The session-refresh rhythm (spec, section 9): check every 30 s, refresh within 3 ticks of expiry. */
export const REFRESH_TICK_MS = 30_000;
export const REFRESH_WITHIN_TICKS = 3;

/** True when the access token expires within `ticks` ticks (90 s by default) of `now`, or already has. */
export function shouldRefresh(now: number, accessTokenExpiresAt: number, tickMs = REFRESH_TICK_MS, ticks = REFRESH_WITHIN_TICKS): boolean {
  return accessTokenExpiresAt - now <= tickMs * ticks;
}
