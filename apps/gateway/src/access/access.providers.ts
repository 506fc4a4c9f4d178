import type { Provider } from '@nestjs/common';
import { AccessController } from './access.controller.js';
import { ViewerEntriesService } from './viewer-entries.service.js';

/** Family access, the owner's side and the public request form (the viewer's routes are in view/, registered beside them). */
export const ACCESS_CONTROLLERS = [AccessController];

export const accessProviders: Provider[] = [ViewerEntriesService];
