import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { answerTable, readerMatrixTests, runReaderMatrix, startMatrixService, type MatrixService, type ReaderMatrixResult } from '@lv/testing';

// Every notifications handler against every kind of caller (libs/testing runReaderMatrix), compared with
// the table below. notifications holds no vault data: its handlers are operators' only.

jest.setTimeout(120_000);

const ANSWERS = answerTable(`
subject                                  anonymous owner  other-owner admin  operator  | timeline letters court-journal who-i-am if-im-not-there all-sections | other-vault expired revoked
# notifications holds no vault data: operators only.
rpc.notifications.op.resend-key-email    unauth    forbid forbid      forbid NOT_FOUND | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.notifications.op.rebuild-projections unauth    forbid forbid      forbid ok        | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.notifications.health                 ok        ok     ok          ok     ok        | ok       ok      ok            ok       ok              ok           | ok          ok      ok
`);

describe('notifications reader matrix', () => {
  let service: MatrixService;
  let result: ReaderMatrixResult;

  beforeAll(async () => {
    service = await startMatrixService({
      label: 'notifymx',
      definition: async () => (await import('../src/notifications.definition.js')).notificationsService,
      env: { SMTP_IGNORE_TLS: 'true', KEY_MAIL_SECRET: `key-mail-secret-of-the-matrix-${randomBytes(6).toString('hex')}` },
    });
    result = await runReaderMatrix(service, {
      answers: ANSWERS,
      payloads: { 'rpc.notifications.op.resend-key-email': { key_id: randomUUID() } },
      ownerSecrets: [`nothing-of-a-vault-here${randomBytes(6).toString('hex')}`],
    });
  });

  afterAll(async () => {
    await service?.close();
  });

  readerMatrixTests(() => result);
});
