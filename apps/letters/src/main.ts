import { runService } from '@lv/platform/nest';
import { lettersService } from './letters.definition.js';

runService(lettersService);
