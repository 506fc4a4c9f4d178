import { runService } from '@lv/platform/nest';
import { billingService } from './billing.definition.js';

runService(billingService);
