import { runService } from '@lv/platform/nest';
import { courtJournalService } from './court-journal.definition.js';

runService(courtJournalService);
