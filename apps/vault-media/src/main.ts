import { runService } from '@lv/platform/nest';
import { vaultMediaService } from './vault-media.definition.js';

runService(vaultMediaService);
