import { randomBytes, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { answerTable, readerMatrixTests, runReaderMatrix, startMatrixService, type MatrixService, type ReaderMatrixResult } from '@lv/testing';

// Every billing handler against every kind of caller (libs/testing runReaderMatrix), compared with the
// table below: what each caller must get, written by hand and not from the handlers' declarations.

jest.setTimeout(120_000);

const ANSWERS = answerTable(`
subject                            anonymous owner    other-owner admin     operator | timeline letters court-journal who-i-am if-im-not-there all-sections | other-vault expired revoked
rpc.billing.subscription           unauth    ok       ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.billing.start-checkout         unauth    ok       ok          ok        forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# No subscription to cancel or change: past the guard, refused by the service.
rpc.billing.cancel                 unauth    CONFLICT CONFLICT    CONFLICT  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.billing.change-plan            unauth    CONFLICT CONFLICT    CONFLICT  forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The payment provider's signed events: public, refused without a valid signature.
rpc.billing.webhook                invalid   invalid  invalid     invalid   invalid  | invalid  invalid invalid       invalid  invalid         invalid      | invalid     invalid invalid
# The local provider's checkout: only the owner who started it finds it.
rpc.billing.local.session          unauth    ok       NOT_FOUND   NOT_FOUND forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.billing.local.pay              unauth    ok       NOT_FOUND   NOT_FOUND forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.billing.local.cancel           unauth    ok       NOT_FOUND   NOT_FOUND forbid   | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
# The public FAQ; its administration is for admins (by the token's claim) and operators.
rpc.billing.faq                    ok        ok       ok          ok        ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
rpc.billing.faq.all                unauth    forbid   forbid      ok        ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.billing.faq.save               unauth    forbid   forbid      ok        ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.billing.op.rebuild-projections unauth    forbid   forbid      forbid    ok       | forbid   forbid  forbid        forbid   forbid          forbid       | forbid      expired expired
rpc.billing.health                 ok        ok       ok          ok        ok       | ok       ok      ok            ok       ok              ok           | ok          ok      ok
`);

describe('billing reader matrix', () => {
  let service: MatrixService;
  let result: ReaderMatrixResult;
  let checkout: { session_id: string };

  beforeAll(async () => {
    service = await startMatrixService({
      label: 'billingmx',
      // Pay's webhooks are dropped here: this spec is about who may call what, not about payments.
      definition: async () => (await import('../src/billing.definition.js')).billingServiceWith({ deliverWebhook: () => Promise.resolve() }),
      env: { LOCAL_WEBHOOK_SECRET: randomBytes(32).toString('hex') },
    });
    const { rpc, ownerId, anotherOwnerId } = service.callers;
    // The owner's checkout session: its id is what only the owner may see or pay.
    checkout = await rpc.call<{ session_id: string }>('rpc.billing.start-checkout', { plan: 'pro' }, service.callers.tokenOf(ownerId));
    await rpc.call('rpc.billing.start-checkout', { plan: 'legacy' }, service.callers.tokenOf(anotherOwnerId));

    result = await runReaderMatrix(service, {
      answers: ANSWERS,
      payloads: {
        'rpc.billing.start-checkout': { plan: 'essentials' },
        'rpc.billing.change-plan': { plan: 'legacy' },
        'rpc.billing.local.session': { session_id: checkout.session_id },
        'rpc.billing.local.pay': { session_id: checkout.session_id },
        'rpc.billing.local.cancel': { session_id: checkout.session_id },
        'rpc.billing.faq.save': { question: 'Who may write here?', answer: 'Admins only.', is_active: false, display_order: 99 },
        'rpc.billing.webhook': { body: '{}', signature: 't=1,v1=0' },
      },
      ownerSecrets: [checkout.session_id],
      ownerReads: ['rpc.billing.local.session'],
    });
  });

  afterAll(async () => {
    await service?.close();
  });

  readerMatrixTests(() => result);

  it('lets an admin’s token through the FAQ administration, and does not find one owner’s checkout for another', async () => {
    const { rpc, anotherOwnerId } = service.callers;
    await expect(rpc.call('rpc.billing.faq.all', {}, service.callers.tokenOf(randomUUID(), { admin: true }))).resolves.toEqual(expect.any(Array));
    // An empty answer is not what keeps the other owner out.
    await expect(rpc.call('rpc.billing.local.session', { session_id: checkout.session_id }, service.callers.tokenOf(anotherOwnerId))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
