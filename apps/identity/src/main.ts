import { runService } from '@lv/platform/nest';
import { identityService } from './identity.definition.js';

runService(identityService);
