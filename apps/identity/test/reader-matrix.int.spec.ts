import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { answerTable, generateTestKeys, readerMatrixTests, runReaderMatrix, startMatrixService, type MatrixService, type ReaderMatrixResult } from '@lv/testing';

// Every identity handler against every kind of caller (libs/testing runReaderMatrix), compared with the
// table below. Its owners are users signed up for the spec, since identity keeps the accounts.

jest.setTimeout(120_000);

const ANSWERS = answerTable(`
subject                                    anonymous owner   other-owner admin   operator | timeline letters court-journal who-i-am if-im-not-there all-sections | other-vault expired revoked
# Public: signing up and in come before a token.
rpc.identity.sign-up                       invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.sign-in                       invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.sign-in.two-step              invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.refresh                       invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.sign-out                      ok        ok      ok          ok      ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
rpc.identity.get-me                        unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Account recovery: public, the address or the link's token is the whole input.
rpc.identity.forgot-password               invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.reset-password                invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.confirm-email-change          invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.undo-email-change             invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.disown-sign-in                invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.verify-email                  invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
# Public on NATS for access-keys and notifications (deploy/nats keeps the gateway from them).
rpc.identity.owner-display-name            invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.access-request-mail-to        invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.owner-mail-to               invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
# A user's own account; never a viewer's or an operator's.
rpc.identity.update-me                     unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.change-email                  unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.change-password               unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.sessions.list                 unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.sessions.end                  unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.sessions.end-others           unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.verify-email.resend           unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.two-step.status               unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.two-step.setup                unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.two-step.confirm              unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.two-step.disable              unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.two-step.recovery-codes       unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.confirm-identity              unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Passkeys (WebAuthn): the caller's own; adding needs sudo mode, which the matrix's fresh tokens have.
rpc.identity.passkeys.list                 unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.passkeys.registration-options unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.passkeys.add                  unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.passkeys.rename               unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.passkeys.remove               unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Sudo mode with a passkey: the matrix's accounts have none, so there is nothing to ask for.
rpc.identity.confirm-identity.passkey-options unauth NOT_FOUND NOT_FOUND NOT_FOUND forbid | forbid forbid forbid forbid forbid forbid | forbid expired expired
rpc.identity.confirm-identity.passkey      unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Public: a passkey's ceremony for signing in comes before a token; its answer and the password step's challenge are the proof.
rpc.identity.sign-in.passkey-options       ok        ok      ok          ok      ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
rpc.identity.sign-in.passkey               invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.sign-in.two-step.passkey-options invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.sign-in.two-step.passkey      invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
# Deleting the account: the caller's own (asking needs sudo mode and the word, keeping needs nothing scheduled to fail CONFLICT); the link's token is the proof.
rpc.identity.account-deletion.status       unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.account-deletion.request      unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.account-deletion.cancel       unauth    CONFLICT CONFLICT   CONFLICT forbid  | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.account-deletion.keep-by-link invalid   invalid invalid     invalid invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.identity.notification-preferences.get  unauth    ok      ok          ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.notification-preferences.save unauth    invalid invalid     invalid forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The admin dashboard: the token's claim and identity's own record must both say admin.
rpc.identity.admin.overview                unauth    forbid  forbid      ok      forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The ops CLI's.
rpc.identity.op.find-user                  unauth    forbid  forbid      forbid  invalid  | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.op.set-admin                  unauth    forbid  forbid      forbid  invalid  | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.op.set-tier                   unauth    forbid  forbid      forbid  invalid  | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.op.rebuild-projections        unauth    forbid  forbid      forbid  ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.op.account-erase-due          unauth    forbid  forbid      forbid  ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.op.replay-erasures            unauth    forbid  forbid      forbid  ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.identity.health                        ok        ok      ok          ok      ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
`);

describe('identity reader matrix', () => {
  let service: MatrixService;
  let result: ReaderMatrixResult;

  beforeAll(async () => {
    const keys = generateTestKeys();
    service = await startMatrixService({
      label: 'identitymx',
      definition: async () => (await import('../src/identity.definition.js')).identityService,
      // identity signs the access tokens it issues; the matrix signs its callers' tokens with the same key.
      accessTokenKeys: keys,
      env: { JWT_PRIVATE_KEY: keys.privateKey, KEY_MAIL_SECRET: randomBytes(24).toString('hex') },
    });
    const signUp = (email: string) => service.callers.rpc.call<{ profile: { id: string } }>('rpc.identity.sign-up', { email, password: 'secret-one' });
    const ownerEmail = `owner${randomBytes(6).toString('hex')}@example.com`;
    const owner = await signUp(ownerEmail);
    const another = await signUp(`other${randomBytes(6).toString('hex')}@example.com`);
    // identity asks its own records whether an admin still is one: the matrix's admin is a user made admin by an operator.
    const adminEmail = `admin${randomBytes(6).toString('hex')}@example.com`;
    const admin = await signUp(adminEmail);
    await service.callers.rpc.call('rpc.identity.op.set-admin', { email: adminEmail, admin: true }, service.callers.operatorToken());

    result = await runReaderMatrix(service, {
      answers: ANSWERS,
      people: { ownerId: owner.profile.id, anotherOwnerId: another.profile.id, adminId: admin.profile.id },
      ownerSecrets: [ownerEmail],
      ownerReads: ['rpc.identity.get-me'],
    });
  });

  afterAll(async () => {
    await service?.close();
  });

  readerMatrixTests(() => result);
});
