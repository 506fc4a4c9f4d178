import { runService } from '@lv/platform/nest';
import { timelineService } from './timeline.definition.js';

runService(timelineService);
