// /api/letters through the gateway booted in-process (createGatewayApp) against the machine's real
// NATS and Redis and the embedded S3 server; the letters service is a stand-in speaking Nest's NATS
// wire format, so this spec is about the HTTP edge: routes, status codes, validation, what travels
// to the service (and what never does). The real service is covered by apps/letters' specs and the
// browser tests.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { LetterMessages, LettersRpc, MilestoneMessages, PortraitMessages, type Letter } from '@lv/contracts';
import { DomainError } from '@lv/platform/errors';
import { generateTestKeys, userTokenSigner } from '@lv/testing';
import { startSpecEdge, type SpecEdge } from './support/spec-gateway.js';
import { NestNatsResponder } from './support/nest-nats-responder.js';

const STACK_ID = `gwl${randomUUID().slice(0, 8)}`;
process.env.STACK_ID = STACK_ID;

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const keys = generateTestKeys();
const USER_ID = randomUUID();
const token = userTokenSigner(keys.privateKey)(USER_ID, { email: 'dad@example.com', tier: 'none' }, 600);
const LETTER_ID = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const STALE_ID = '1d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';

const letter = (over: Partial<Letter> = {}): Letter => ({
  id: LETTER_ID, title: 'To Sam', preview: 'Hello.', content: 'Hello.', word_count: 1, created_at: '2026-11-22T10:00:00.000Z', updated_at: '2026-11-22T10:00:00.000Z', version: 1, ...over,
});

describe('gateway /api/letters', () => {
  let edge: SpecEdge | undefined;
  let http: FastifyInstance;
  let letters: NestNatsResponder;

  const call = (options: InjectOptions, auth = true) => http.inject({ ...options, headers: { ...(auth ? { authorization: `Bearer ${token}` } : {}), ...options.headers } });

  beforeAll(async () => {
    letters = await NestNatsResponder.start(NATS_URL, STACK_ID);
    letters
      .handle(LettersRpc.list, ({ payload }) => ({ letters: [letter()], nextCursor: payload.cursor ? null : 'next-page' }))
      .handle(LettersRpc.get, ({ payload }) => {
        if (payload.id !== LETTER_ID) throw new DomainError('NOT_FOUND', LetterMessages.notFound);
        return letter();
      })
      .handle(LettersRpc.write, ({ payload }) => letter({ id: payload.id, title: payload.title, content: payload.content }))
      .handle(LettersRpc.revise, ({ payload }) => {
        if (payload.id === STALE_ID) throw new DomainError('CONFLICT');
        return letter({ title: payload.title, content: payload.content, version: payload.expectedVersion + 1 });
      })
      .handle(LettersRpc.delete, ({ payload }) => ({ id: payload.id, deleted: true }));
    await letters.listen(['rpc.letters.>']);

    edge = await startSpecEdge('letters', { NATS_URL, REDIS_URL, JWT_PUBLIC_KEY: keys.publicKey, RPC_TIMEOUT_MS: '1500', HEALTH_SERVICES: 'letters' }, { statsProviders: ['letters'] });
    ({ http } = edge);
  });

  afterAll(async () => {
    await edge?.close();
    await letters?.close();
  });

  it('needs a valid access token for every letters route, and forwards it to the service', async () => {
    for (const [method, url] of [['GET', '/api/letters'], ['GET', `/api/letters/${LETTER_ID}`], ['POST', '/api/letters'], ['PUT', `/api/letters/${LETTER_ID}`], ['DELETE', `/api/letters/${LETTER_ID}`]] as const) {
      const response = await call({ method, url, payload: method === 'POST' || method === 'PUT' ? {} : undefined }, false);
      expect({ method, url, status: response.statusCode }).toEqual({ method, url, status: 401 });
    }
    expect((await call({ method: 'GET', url: '/api/letters' })).statusCode).toBe(200);
    expect(letters.callsTo(LettersRpc.list).at(-1)!.auth.accessToken).toBe(token);
  });

  it('lists with limit and cursor', async () => {
    const response = await call({ method: 'GET', url: '/api/letters?limit=20&cursor=abc' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ letters: [letter()], nextCursor: null });
    expect(letters.callsTo(LettersRpc.list).at(-1)!.payload).toEqual({ limit: 20, cursor: 'abc' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect((await call({ method: 'GET', url: '/api/letters?limit=5000' })).json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('writes a letter (201), trimmed, under the client’s id or a fresh one, never with an owner from the body', async () => {
    const id = randomUUID();
    const response = await call({ method: 'POST', url: '/api/letters', payload: { id, title: '  To Sam ', content: ' Hello. ', ownerId: 'someone-else', user_id: 'x' } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ id, title: 'To Sam', content: 'Hello.' });
    expect(letters.callsTo(LettersRpc.write).at(-1)!.payload).toEqual({ id, title: 'To Sam', content: 'Hello.' });
    await call({ method: 'POST', url: '/api/letters', payload: { title: 'No id', content: 'Given one.' } });
    expect(letters.callsTo(LettersRpc.write).at(-1)!.payload.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses blank words with 400 and the shared messages, without calling the service', async () => {
    const before = letters.callsTo(LettersRpc.write).length;
    const response = await call({ method: 'POST', url: '/api/letters', payload: { title: '  ', content: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { title: LetterMessages.titleRequired, content: LetterMessages.contentRequired } });
    expect(letters.callsTo(LettersRpc.write)).toHaveLength(before);
  });

  it('reads, revises with expectedVersion, and deletes (204)', async () => {
    expect((await call({ method: 'GET', url: `/api/letters/${LETTER_ID}` })).json()).toEqual(letter());
    const revised = await call({ method: 'PUT', url: `/api/letters/${LETTER_ID}`, payload: { title: 'To Sam', content: 'Hello again.', expectedVersion: 1 } });
    expect(revised.statusCode).toBe(200);
    expect(revised.json()).toMatchObject({ content: 'Hello again.', version: 2 });
    expect(letters.callsTo(LettersRpc.revise).at(-1)!.payload).toEqual({ id: LETTER_ID, title: 'To Sam', content: 'Hello again.', expectedVersion: 1 });
    const deleted = await call({ method: 'DELETE', url: `/api/letters/${LETTER_ID}` });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
  });

  // Against a stand-in this proves the edge only: the owner check is the letters service's (its own
  // spec tries another user's id against the real service).
  it('relays the service’s NOT_FOUND as 404 with its words, answers a malformed id 404 without asking the service, and 409 for a stale edit', async () => {
    const missing = await call({ method: 'GET', url: `/api/letters/${randomUUID()}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 'NOT_FOUND', message: LetterMessages.notFound });
    const before = letters.received.length;
    for (const url of ['/api/letters/42', "/api/letters/x'%20or%201=1", '/api/letters/..%2Fadmin']) {
      expect((await call({ method: 'GET', url })).statusCode).toBe(404);
      expect((await call({ method: 'DELETE', url })).statusCode).toBe(404);
    }
    expect(letters.received).toHaveLength(before);
    const stale = await call({ method: 'PUT', url: `/api/letters/${STALE_ID}`, payload: { title: 'To Sam', content: 'Mine.', expectedVersion: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ code: 'CONFLICT', message: 'This was changed elsewhere. Reload to see the latest version.' });
  });

  it('seals and unseals a letter for the caller only: 401 without a token or with a bad one, 400 at the edge with the words, 404 for a malformed id, 409 relayed', async () => {
    const milestone = { until: '2034-05-14', time_zone: 'Europe/London', due_at: '2034-05-13T23:00:00.000Z', recipient_name: 'Ellie', recipient_email: 'ellie@example.com', status: 'sealed' as const, released_at: null };
    letters
      .handle(LettersRpc.seal, ({ payload }) => {
        if (payload.id === STALE_ID) throw new DomainError('CONFLICT', MilestoneMessages.released);
        return letter({ milestone });
      })
      .handle(LettersRpc.unseal, () => letter({ milestone: null }));
    const body = { until: '2034-05-14', time_zone: 'Europe/London', recipient_name: ' Ellie ', recipient_email: 'Ellie@Example.com', ownerId: 'someone-else', release_id: 'x' };
    for (const [method, url] of [['PUT', `/api/letters/${LETTER_ID}/seal`], ['DELETE', `/api/letters/${LETTER_ID}/seal`]] as const) {
      expect((await call({ method, url, payload: method === 'PUT' ? body : undefined }, false)).statusCode).toBe(401);
      expect((await call({ method, url, payload: method === 'PUT' ? body : undefined, headers: { authorization: 'Bearer not-a-token' } }, false)).statusCode).toBe(401);
    }
    const sealed = await call({ method: 'PUT', url: `/api/letters/${LETTER_ID}/seal`, payload: body });
    expect(sealed.statusCode).toBe(200);
    expect(sealed.json()).toMatchObject({ id: LETTER_ID, milestone });
    const sent = letters.callsTo(LettersRpc.seal).at(-1)!;
    expect(sent.payload).toEqual({ id: LETTER_ID, until: '2034-05-14', time_zone: 'Europe/London', recipient_name: 'Ellie', recipient_email: 'ellie@example.com' });
    expect(sent.auth.accessToken).toBe(token);

    const before = letters.callsTo(LettersRpc.seal).length;
    const bad = await call({ method: 'PUT', url: `/api/letters/${LETTER_ID}/seal`, payload: { until: '2034-02-30', time_zone: 'Nowhere/Else', recipient_name: ' ', recipient_email: 'ellie' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { until: MilestoneMessages.untilRequired, time_zone: MilestoneMessages.timeZone, recipient_name: MilestoneMessages.nameRequired, recipient_email: MilestoneMessages.emailInvalid },
    });
    expect((await call({ method: 'PUT', url: '/api/letters/42/seal', payload: body })).statusCode).toBe(404);
    expect((await call({ method: 'DELETE', url: '/api/letters/42/seal' })).statusCode).toBe(404);
    expect(letters.callsTo(LettersRpc.seal)).toHaveLength(before);

    const released = await call({ method: 'PUT', url: `/api/letters/${STALE_ID}/seal`, payload: body });
    expect(released.statusCode).toBe(409);
    expect(released.json()).toEqual({ code: 'CONFLICT', message: MilestoneMessages.released });
    const unsealed = await call({ method: 'DELETE', url: `/api/letters/${LETTER_ID}/seal` });
    expect(unsealed.statusCode).toBe(200);
    expect(unsealed.json()).toMatchObject({ milestone: null });
    expect(letters.callsTo(LettersRpc.unseal).at(-1)!.payload).toEqual({ id: LETTER_ID });
  });

  it('documents the letters routes in the OpenAPI document', async () => {
    const doc = (await call({ method: 'GET', url: '/api/openapi.json' }, false)).json();
    for (const [path, method] of [
      ['/api/letters', 'get'], ['/api/letters', 'post'], ['/api/letters/{id}', 'get'], ['/api/letters/{id}', 'put'], ['/api/letters/{id}', 'delete'],
      ['/api/letters/{id}/seal', 'put'], ['/api/letters/{id}/seal', 'delete'],
    ]) {
      expect(doc.paths[path!]?.[method!]).toBeDefined();
    }
    expect(doc.paths['/api/letters/{id}'].put.responses['409']).toBeDefined();
    expect(doc.components.schemas.LetterPageDto).toBeDefined();
  });

  it('adds letters to the vault home numbers', async () => {
    letters.handle(LettersRpc.stats, () => ({ lettersWritten: 4, thoughtsSaved: 1, activeDays: ['2026-11-01', '2026-11-03'] }));
    expect((await call({ method: 'GET', url: '/api/vault/stats' })).json()).toEqual({ videosSaved: 0, lettersWritten: 4, thoughtsSaved: 1, daysActive: 2 });
  });

  it('reads and saves the vault reflection (GET/PUT /api/vault/reflection) with the caller’s token only, trimmed, validated at the edge', async () => {
    letters
      .handle(LettersRpc.reflectionGet, () => ({ text: 'Kept.', updated_at: '2026-11-22T10:00:00.000Z' }))
      .handle(LettersRpc.reflectionSave, ({ payload }) => ({ text: payload.text, updated_at: payload.text ? '2026-11-23T10:00:00.000Z' : null }));
    for (const method of ['GET', 'PUT'] as const) {
      expect((await call({ method, url: '/api/vault/reflection', payload: method === 'PUT' ? { text: 'x' } : undefined }, false)).statusCode).toBe(401);
    }
    expect((await call({ method: 'GET', url: '/api/vault/reflection' })).json()).toEqual({ text: 'Kept.', updated_at: '2026-11-22T10:00:00.000Z' });
    expect(letters.callsTo(LettersRpc.reflectionGet).at(-1)!.auth.accessToken).toBe(token);

    const saved = await call({ method: 'PUT', url: '/api/vault/reflection', payload: { text: '  New words. ', userId: 'someone-else' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ text: 'New words.', updated_at: '2026-11-23T10:00:00.000Z' });
    const sent = letters.callsTo(LettersRpc.reflectionSave).at(-1)!;
    expect(sent.payload).toEqual({ text: 'New words.' });
    expect(sent.auth.accessToken).toBe(token);
    expect((await call({ method: 'PUT', url: '/api/vault/reflection', payload: { text: '  ' } })).json()).toEqual({ text: '', updated_at: null });

    const before = letters.callsTo(LettersRpc.reflectionSave).length;
    const tooLong = await call({ method: 'PUT', url: '/api/vault/reflection', payload: { text: 'x'.repeat(20_001) } });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { text: 'A reflection can be at most 20,000 characters.' } });
    expect((await call({ method: 'PUT', url: '/api/vault/reflection', payload: { words: 'no text' } })).statusCode).toBe(400);
    expect(letters.callsTo(LettersRpc.reflectionSave)).toHaveLength(before);

    const doc = (await call({ method: 'GET', url: '/api/openapi.json' }, false)).json();
    expect(doc.paths['/api/vault/reflection']?.get).toBeDefined();
    expect(doc.paths['/api/vault/reflection']?.put?.responses['400']).toBeDefined();
    expect(doc.components.schemas.ReflectionDto).toBeDefined();
    expect(doc.components.schemas.VaultStatsDto.required).toContain('thoughtsSaved');
  });

  it('reads and saves the Who I Am portrait (GET/PUT /api/who-i-am) with the caller’s token only, normalised and validated at the edge', async () => {
    const kept = { about_me: 'Kept.', personality_traits: ['Kind'], favorite_music: '', favorite_films: '', core_values: ['honesty'], updated_at: '2026-11-25T10:00:00.000Z' };
    letters
      .handle(LettersRpc.portraitGet, () => kept)
      .handle(LettersRpc.portraitSave, ({ payload }) => ({ ...payload, updated_at: '2026-11-25T11:00:00.000Z' }));
    for (const method of ['GET', 'PUT'] as const) {
      expect((await call({ method, url: '/api/who-i-am', payload: method === 'PUT' ? { about_me: 'x' } : undefined }, false)).statusCode).toBe(401);
    }
    expect((await call({ method: 'GET', url: '/api/who-i-am' })).json()).toEqual(kept);
    expect(letters.callsTo(LettersRpc.portraitGet).at(-1)!.auth.accessToken).toBe(token);

    const saved = await call({ method: 'PUT', url: '/api/who-i-am', payload: { about_me: '  A father. ', core_values: ['honesty', '  ', ' courage '], user_id: 'someone-else', image_path: 'x' } });
    expect(saved.statusCode).toBe(200);
    const sent = letters.callsTo(LettersRpc.portraitSave).at(-1)!;
    expect(sent.payload).toEqual({ about_me: 'A father.', personality_traits: [], favorite_music: '', favorite_films: '', core_values: ['honesty', 'courage'] });
    expect(sent.auth.accessToken).toBe(token);

    const before = letters.callsTo(LettersRpc.portraitSave).length;
    const badTrait = await call({ method: 'PUT', url: '/api/who-i-am', payload: { personality_traits: ['Grumpy'] } });
    expect(badTrait.statusCode).toBe(400);
    expect(badTrait.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'personality_traits.0': PortraitMessages.unknownTrait } });
    const tooLong = await call({ method: 'PUT', url: '/api/who-i-am', payload: { about_me: 'x'.repeat(10_001) } });
    expect(tooLong.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { about_me: PortraitMessages.aboutMeTooLong } });
    expect((await call({ method: 'PUT', url: '/api/who-i-am', payload: { core_values: 'not a list' } })).statusCode).toBe(400);
    expect(letters.callsTo(LettersRpc.portraitSave)).toHaveLength(before);
  });
});
