import { defineService } from '@lv/platform/nest';
import { CommunityController } from './community/community.controller.js';
import { CommunityService } from './community/community.service.js';
import { lettersConfigSchema } from './config.js';
import { LettersController } from './letters.controller.js';
import { LettersService } from './letters.service.js';
import { lettersMigrations } from './migrations.js';

/** letters: Letters Unsent, the vault home's reflection, the Who I Am portrait (words sealed per stream) and the Parent Circle's posts and stories. */
export const lettersService = defineService({
  name: 'letters',
  configSchema: lettersConfigSchema,
  migrations: lettersMigrations,
  setup: ({ core }) => ({
    controllers: [LettersController, CommunityController],
    providers: [{ provide: LettersService, useValue: new LettersService({ orm: core.orm }) }, { provide: CommunityService, useValue: new CommunityService(core.orm) }],
  }),
});
