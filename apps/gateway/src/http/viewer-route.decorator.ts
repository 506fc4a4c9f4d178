import { SetMetadata } from '@nestjs/common';

export const VIEWER_ROUTE = 'lv:viewer-route';

/**
 * Marks a handler (or controller) read by viewers of a vault: it takes a viewer token, never an
 * owner's access token. Every other guarded handler takes an owner's access token, never a viewer's.
 */
export const ViewerRoute = () => SetMetadata(VIEWER_ROUTE, true);
