import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { StripeProvider } from './payment-provider.js';

// The checkout Stripe is asked for, read off the wire: a small stand-in for Stripe's API on a local
// port answers the two calls a checkout makes (the promotion code lookup, the session), and keeps
// what the provider sent, as Stripe would receive it.

interface Received { method: string; path: string; query: URLSearchParams; form: URLSearchParams }

const KNOWN_CODES: Record<string, string> = { FAMILY20: 'promo_family20' };
const received: Received[] = [];
let server: Server;
let provider: StripeProvider;

const bodyOf = (req: IncomingMessage) => new Promise<string>((resolve) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
});

beforeAll(async () => {
  server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      const url = new URL(req.url ?? '/', 'http://stripe.local');
      received.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, form: new URLSearchParams(body) });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && url.pathname === '/v1/promotion_codes') {
        const id = KNOWN_CODES[url.searchParams.get('code') ?? ''];
        res.end(JSON.stringify({ object: 'list', url: '/v1/promotion_codes', has_more: false, data: id ? [{ id, object: 'promotion_code', code: url.searchParams.get('code'), active: true }] : [] }));
      } else if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        res.end(JSON.stringify({ id: 'cs_test_spec', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_test_spec' }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `no ${req.method} ${url.pathname} here` } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider = new StripeProvider('sk_test_spec', 'whsec_spec', { host: '127.0.0.1', port: (server.address() as AddressInfo).port, protocol: 'http' });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
});

const checkout = (promoCode: string | null) =>
  provider.createCheckout({ ownerId: '2b0f4c1e-8d3a-4f5b-9c6d-7e8f9a0b1c2d', email: 'sam@example.com', tier: 'pro', promoCode, successUrl: 'http://vault.test/checkout/success', cancelUrl: 'http://vault.test/pricing' });
const sessionSent = () => received.find((r) => r.path === '/v1/checkout/sessions')!.form;

describe('StripeProvider.createCheckout and the pricing link’s promo code', () => {
  it('applies a code Stripe knows through its promotion code, looked up as active', async () => {
    expect(await checkout('FAMILY20')).toEqual({ sessionId: 'cs_test_spec', url: 'https://checkout.stripe.com/c/pay/cs_test_spec' });
    const lookup = received.find((r) => r.path === '/v1/promotion_codes')!;
    expect(Object.fromEntries(lookup.query)).toEqual({ code: 'FAMILY20', active: 'true', limit: '1' });
    const session = sessionSent();
    expect(session.get('discounts[0][promotion_code]')).toBe('promo_family20');
    expect(session.has('allow_promotion_codes')).toBe(false);
    expect(session.get('metadata[ownerId]')).toBe('2b0f4c1e-8d3a-4f5b-9c6d-7e8f9a0b1c2d');
    expect(session.get('subscription_data[metadata][tier]')).toBe('pro');
    expect(session.get('customer_email')).toBe('sam@example.com');
  });

  it('leaves the page’s own promo field open for a code Stripe does not know, and applies nothing', async () => {
    await checkout('NOT-A-CODE');
    const session = sessionSent();
    expect(session.get('allow_promotion_codes')).toBe('true');
    expect([...session.keys()].filter((k) => k.startsWith('discounts'))).toEqual([]);
  });

  it('asks Stripe nothing about codes when the link had none', async () => {
    await checkout(null);
    expect(received.map((r) => r.path)).toEqual(['/v1/checkout/sessions']);
    const session = sessionSent();
    expect(session.has('allow_promotion_codes')).toBe(false);
    expect([...session.keys()].filter((k) => k.startsWith('discounts'))).toEqual([]);
  });
});
