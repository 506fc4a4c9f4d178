import { runService } from '@lv/platform/nest';
import { notificationsService } from './notifications.definition.js';

runService(notificationsService);
