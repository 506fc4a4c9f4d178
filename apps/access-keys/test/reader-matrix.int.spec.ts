import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { answerTable, generateTestKeys, readerMatrixTests, runReaderMatrix, startMatrixService, type MatrixService, type ReaderMatrixResult } from '@lv/testing';

// Every access-keys handler against every kind of caller (libs/testing runReaderMatrix), compared with
// the table below. Public handlers (request form, redemption, session exchange) let everyone past the
// guard by design; what they do with a caller is the service spec's subject.

jest.setTimeout(120_000);

const ANSWERS = answerTable(`
subject                                  anonymous owner   other-owner admin    operator | timeline letters court-journal who-i-am if-im-not-there all-sections | other-vault expired revoked
# Public: the request form, redemption and the session exchange come before anyone holds a token.
rpc.access-keys.submit-request           invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.access-keys.request-form             invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.access-keys.consent                  ok        ok      ok          ok       ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
rpc.access-keys.redeem                   invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.access-keys.view-token               invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.access-keys.close-session            invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
# Public on NATS, for services that carry no person's token (deploy/nats keeps the gateway from them).
rpc.access-keys.key-mail-state           invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.access-keys.request-notice-state     ok        ok      ok          ok       ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
# The owner's own settings, keys and requests; never a viewer's, an operator's or an anonymous caller's.
rpc.access-keys.request-setting.get      unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.request-setting.save     unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.list-requests            unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.approve-request          unauth    invalid invalid     invalid  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.decline-request          unauth    invalid invalid     invalid  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.list-keys                unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.draft-key                unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.create-key               unauth    invalid invalid     invalid  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.revoke-key               unauth    invalid invalid     invalid  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.list-sessions            unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.revoke-session           unauth    invalid invalid     invalid  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# A viewer records his own view: viewers only, of any section.
rpc.access-keys.record-view              unauth    forbid  forbid      forbid   forbid   | invalid  invalid invalid       invalid  invalid         invalid      | invalid     expired expired
rpc.access-keys.op.list-pending          unauth    forbid  forbid      forbid   ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.op.rebuild-projections   unauth    forbid  forbid      forbid   ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.op.replay-erasures       unauth    forbid  forbid      forbid   ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.contacts.list            unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The contact's id in the payload is the owner's, added first: taken for everyone after.
rpc.access-keys.contacts.add             unauth    ok      CONFLICT    CONFLICT forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.contacts.remove          unauth    invalid invalid     invalid  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.contacts.set-key         unauth    invalid invalid     invalid  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.delivery-settings.get    unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.delivery-settings.save   unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# If I'm Not There: what its key holders read.
rpc.access-keys.final-entries            unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   ok              ok           | ok          expired expired
rpc.access-keys.final-access             unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   ok              ok           | ok          expired expired
rpc.access-keys.delivery.get             unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.delivery.checks          unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.delivery.cancel          unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.op.report-absence        unauth    forbid  forbid      forbid   invalid  | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# Public on NATS, for notifications' questions.
rpc.access-keys.trustee-notice-state     invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.access-keys.op.verify-delivery       unauth    forbid  forbid      forbid   invalid  | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.op.delivery-history      unauth    forbid  forbid      forbid   ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The review queue: admins (the token's claim) and operators; the matrix owner's delivery has not started, so nothing waits.
rpc.access-keys.admin.delivery-reviews.list    unauth forbid forbid ok       ok       | forbid forbid forbid forbid forbid forbid | forbid expired expired
rpc.access-keys.admin.delivery-reviews.open    unauth forbid forbid CONFLICT CONFLICT | forbid forbid forbid forbid forbid forbid | forbid expired expired
rpc.access-keys.admin.delivery-reviews.approve unauth forbid forbid CONFLICT CONFLICT | forbid forbid forbid forbid forbid forbid | forbid expired expired
rpc.access-keys.admin.delivery-reviews.reject  unauth forbid forbid CONFLICT CONFLICT | forbid forbid forbid forbid forbid forbid | forbid expired expired
rpc.access-keys.inactivity.get           unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.inactivity.save          unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.inactivity.pause         unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.inactivity.resume        unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.inactivity.test-warning  unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The check-in link from a warning e-mail: public, and a forged signature is refused whoever sends it.
rpc.access-keys.inactivity.check-in-link CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID | CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID | CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID CHECK_IN_LINK_INVALID
rpc.access-keys.inactivity.warning-state ok        ok      ok          ok       ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
# Trustees: the owner's own list; the trustee's id in the payload is the owner's, added first: taken for everyone after.
rpc.access-keys.trustees.list            unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.trustees.add             unauth    ok      CONFLICT    CONFLICT forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.trustees.resend          unauth    invalid invalid     invalid  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.trustees.remove          unauth    invalid invalid     invalid  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# A trustee's page: public, the e-mailed link is the credential; a forged one is refused whoever sends it.
rpc.access-keys.trustee.view             TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID | TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID | TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID
rpc.access-keys.trustee.answer           TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID | TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID | TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID
rpc.access-keys.trustees.open-report     unauth    ok      ok          ok       forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The owner's veto: nobody here has a report open, so every owner is refused alike.
rpc.access-keys.trustees.veto-report     unauth    CONFLICT CONFLICT   CONFLICT forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.access-keys.trustee.report           TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID | TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID | TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID TRUSTEE_LINK_INVALID
rpc.access-keys.trustee.request-link     invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.access-keys.trustee.link-state       ok        ok      ok          ok       ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
rpc.access-keys.trustee.report-notice-state ok        ok      ok          ok       ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
# letters only (deploy/nats), checked against letters' own answer for the release.
rpc.access-keys.issue-letter-key         invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.access-keys.key-status               invalid   invalid invalid     invalid  invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
rpc.access-keys.health                   ok        ok      ok          ok       ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
`);

const secret = (label: string) => `${label}${randomBytes(6).toString('hex')}`;

describe('access-keys reader matrix', () => {
  let service: MatrixService;
  let result: ReaderMatrixResult;

  beforeAll(async () => {
    const viewerKeys = generateTestKeys();
    service = await startMatrixService({
      label: 'accessmx',
      definition: async () => (await import('../src/access-keys.definition.js')).accessKeysService,
      viewerKeys,
      env: { VIEWER_JWT_PRIVATE_KEY: viewerKeys.privateKey, KEY_MAIL_SECRET: secret('key-mail-secret-of-the-matrix-') },
    });
    const { rpc, ownerId, anotherOwnerId } = service.callers;
    const ownerWords = secret('ownerrequest');
    const submit = (owner: string, message: string) =>
      rpc.call('rpc.access-keys.submit-request', { user_id: owner, requester_email: 'sam@example.com', relationship: 'Son', message }, undefined);
    await submit(ownerId, ownerWords);
    await submit(anotherOwnerId, secret('otherrequest'));
    // If I'm Not There: a contact and final thoughts only the owner may read.
    const contactName = secret('ownercontact');
    const finalThoughts = secret('ownerthoughts');
    await rpc.call('rpc.access-keys.contacts.add', { id: randomUUID(), name: contactName, label: 'My Friend', email: 'friend@example.com' }, service.callers.tokenOf(ownerId));
    const settings = { delivery_timing: 'immediately', require_legal_verification: false, allow_preview: false, notify_trustee: false, final_thoughts: finalThoughts };
    await rpc.call('rpc.access-keys.delivery-settings.save', settings, service.callers.tokenOf(ownerId));

    result = await runReaderMatrix(service, {
      answers: ANSWERS,
      payloads: {
        'rpc.access-keys.op.list-pending': { owner_id: ownerId },
        'rpc.access-keys.op.delivery-history': { owner_id: ownerId },
        // The owner's delivery has not started: nothing waits for a review, whoever may review.
        'rpc.access-keys.admin.delivery-reviews.open': { owner_id: ownerId },
        'rpc.access-keys.admin.delivery-reviews.approve': { owner_id: ownerId },
        'rpc.access-keys.admin.delivery-reviews.reject': { owner_id: ownerId, reason: 'Matrix reason' },
        'rpc.access-keys.contacts.add': { id: randomUUID(), name: 'Matrix contact', label: 'Other', email: 'matrix@example.com' },
        'rpc.access-keys.delivery-settings.save': { ...settings, final_thoughts: 'whoever saves' },
        'rpc.access-keys.inactivity.save': { period_days: 90 },
        'rpc.access-keys.inactivity.check-in-link': { w: randomUUID(), u: ownerId, exp: '9999999999', sig: 'forged' },
        'rpc.access-keys.inactivity.warning-state': { owner_id: ownerId, warning_id: randomUUID() },
        'rpc.access-keys.request-setting.save': { open: true },
        'rpc.access-keys.request-notice-state': { owner_id: ownerId, request_id: randomUUID() },
        'rpc.access-keys.trustees.add': { id: randomUUID(), name: 'Matrix trustee', relationship: 'Other', email: 'matrix-trustee@example.com' },
        'rpc.access-keys.trustee.view': { t: randomUUID(), n: 'forged-secret-of-the-matrix', u: ownerId, exp: '9999999999', sig: 'forged' },
        'rpc.access-keys.trustee.answer': { t: randomUUID(), n: 'forged-secret-of-the-matrix', u: ownerId, exp: '9999999999', sig: 'forged', answer: 'accept' },
        'rpc.access-keys.trustee.report': { t: randomUUID(), n: 'forged-secret-of-the-matrix', u: ownerId, exp: '9999999999', sig: 'forged', kind: 'died', note: '' },
        'rpc.access-keys.trustee.link-state': { ownerId, trusteeId: randomUUID(), linkId: randomUUID() },
        'rpc.access-keys.trustee.report-notice-state': { ownerId, reportId: randomUUID() },
      },
      ownerSecrets: [ownerWords, contactName, finalThoughts],
      // Not delivery-settings.get: the matrix's own save (as the owner, in no fixed order) replaces the secret.
      ownerReads: ['rpc.access-keys.list-requests', 'rpc.access-keys.contacts.list'],
    });
  });

  afterAll(async () => {
    await service?.close();
  });

  readerMatrixTests(() => result);

  it('keeps the request link’s switch to owners, each his own: never a viewer or an anonymous caller', () => {
    for (const subject of ['rpc.access-keys.request-setting.get', 'rpc.access-keys.request-setting.save']) {
      const answer = (caller: Parameters<ReaderMatrixResult['answer']>[1]) => result.answer(subject, caller);
      expect({ subject, anonymous: answer('anonymous'), viewer: answer('all-sections'), other: answer('other-owner') })
        .toEqual({ subject, anonymous: 'UNAUTHENTICATED', viewer: 'FORBIDDEN', other: 'OK' });
    }
  });
});
