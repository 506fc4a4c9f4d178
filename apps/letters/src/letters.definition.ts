import { defineService } from '@lv/platform/nest';
import { lettersConfigSchema } from './config.js';
import { LettersController } from './letters.controller.js';
import { LettersService } from './letters.service.js';
import { lettersMigrations } from './migrations.js';

/** letters: Letters Unsent and the vault home's reflection, words sealed per stream. */
export const lettersService = defineService({
  name: 'letters',
  configSchema: lettersConfigSchema,
  migrations: lettersMigrations,
  setup: ({ core }) => ({
    controllers: [LettersController],
    providers: [{ provide: LettersService, useValue: new LettersService({ orm: core.orm }) }],
  }),
});
