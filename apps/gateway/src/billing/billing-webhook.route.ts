import type { FastifyInstance } from 'fastify';
import { BillingRpc } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import type { RpcClient } from '@lv/platform/nest';
import { sendErrorResponse } from '../http/error-response.js';
import { callContextOf } from '../http/request-context.js';

export const BILLING_WEBHOOK_PATH = '/api/billing/webhook';
/** Provider events are a few KiB; anything near this is not one. */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * The payment provider's webhook: public on purpose (the provider holds no token), and outside Nest's
 * guard and body parsing because the signature covers the body's exact bytes. In a scope of its own,
 * JSON is kept as the string that arrived (limited to WEBHOOK_BODY_LIMIT) and forwarded to billing
 * with the `Stripe-Signature` header; billing verifies both and answers 400 for a forged or stale one,
 * which the provider shows in its dashboard and retries.
 */
export async function registerBillingWebhook(fastify: FastifyInstance, rpc: RpcClient): Promise<void> {
  await fastify.register((scope, _options, done) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.setErrorHandler((error, request, reply) => sendErrorResponse(reply, request.log, error));
    scope.post(BILLING_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      if (typeof request.body !== 'string' || typeof signature !== 'string' || !signature) throw new DomainError('VALIDATION_FAILED', 'The webhook signature is not valid.');
      const answer = await rpc.call(BillingRpc.webhook, { body: request.body, signature }, callContextOf(request));
      return reply.code(200).send(answer);
    });
    done();
  });
}
