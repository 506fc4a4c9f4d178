import { runService } from '@lv/platform/nest';
import { accessKeysService } from './access-keys.definition.js';

runService(accessKeysService);
