import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'lv:public-route';

/**
 * Opens one handler (or a whole controller) to callers without an access token. Every other handler
 * is guarded by CallerGuard: making something public is a deliberate, visible decision.
 */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
