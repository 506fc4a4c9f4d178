import { IdentityEvents, IdentityRpc } from '@lv/contracts';
import { scopedConsumerName, scopedStreamName, scopedSubject, stackPrefix, subjectMatches, unscopedSubject } from './subjects.js';

describe('STACK_ID scoping', () => {
  const saved = process.env.STACK_ID;
  afterEach(() => {
    if (saved === undefined) delete process.env.STACK_ID;
    else process.env.STACK_ID = saved;
  });

  describe('without a stack id (production)', () => {
    beforeEach(() => { delete process.env.STACK_ID; });

    it('leaves subjects, stream names and consumer names as the registry has them', () => {
      expect(stackPrefix()).toBe('');
      expect(scopedSubject(IdentityEvents.UserRegistered)).toBe('identity.user.registered.v1');
      expect(scopedSubject(IdentityRpc.signIn)).toBe('rpc.identity.sign-in');
      expect(scopedStreamName('identity')).toBe('LV_IDENTITY');
      expect(scopedStreamName('vault-media')).toBe('LV_VAULT_MEDIA');
      expect(scopedConsumerName('timeline-from-letters')).toBe('timeline-from-letters');
      expect(unscopedSubject('identity.user.registered.v1')).toBe('identity.user.registered.v1');
    });

    it('treats an empty STACK_ID like none', () => {
      process.env.STACK_ID = '';
      expect(scopedSubject('identity.x.v1')).toBe('identity.x.v1');
      expect(scopedStreamName('billing')).toBe('LV_BILLING');
    });
  });

  describe('with an explicit stack id', () => {
    beforeEach(() => { delete process.env.STACK_ID; });

    it('prefixes subjects with one token and suffixes stream and consumer names', () => {
      expect(stackPrefix('e2e-42')).toBe('e2e-42.');
      expect(scopedSubject('identity.user.registered.v1', 'e2e-42')).toBe('e2e-42.identity.user.registered.v1');
      expect(scopedSubject('identity.>', 'e2e-42')).toBe('e2e-42.identity.>');
      expect(scopedStreamName('identity', 'e2e-42')).toBe('LV_IDENTITY_e2e-42');
      expect(scopedConsumerName('timeline-from-letters', 'e2e_42')).toBe('timeline-from-letters_e2e_42');
    });

    it('round-trips: unscopedSubject(scopedSubject(s)) is s', () => {
      for (const subject of [...Object.values(IdentityEvents).map((declaration) => declaration.subject), ...Object.values(IdentityRpc).map((declaration) => declaration.subject)]) {
        expect(unscopedSubject(scopedSubject(subject, 'specA'), 'specA')).toBe(subject);
      }
    });

    it("leaves a subject without this stack's prefix untouched (another stack's, or a partial match)", () => {
      expect(unscopedSubject('specB.identity.x.v1', 'specA')).toBe('specB.identity.x.v1');
      // 'specA' is a prefix of 'specAB' as a string but not as a token.
      expect(unscopedSubject('specAB.identity.x.v1', 'specA')).toBe('specAB.identity.x.v1');
      expect(unscopedSubject('identity.x.v1', 'specA')).toBe('identity.x.v1');
    });

    it('gives different stacks disjoint subjects, streams and consumers', () => {
      const a = 'stack_a';
      const b = 'stack-a';
      expect(scopedSubject('identity.>', a)).not.toBe(scopedSubject('identity.>', b));
      expect(scopedStreamName('identity', a)).not.toBe(scopedStreamName('identity', b));
      expect(scopedConsumerName('c', a)).not.toBe(scopedConsumerName('c', b));
      expect(scopedSubject('identity.x.v1', a).startsWith(stackPrefix(b))).toBe(false);
    });

    it('lets an explicit empty stack id override STACK_ID (an unscoped client inside a scoped process)', () => {
      process.env.STACK_ID = 'fromenv';
      expect(scopedSubject('identity.x.v1', '')).toBe('identity.x.v1');
      expect(scopedStreamName('identity', '')).toBe('LV_IDENTITY');
      expect(scopedConsumerName('c', '')).toBe('c');
    });
  });

  describe('from the STACK_ID environment variable', () => {
    it('applies to every helper when no stack id is passed', () => {
      process.env.STACK_ID = 'ci7';
      expect(stackPrefix()).toBe('ci7.');
      expect(scopedSubject('identity.user.registered.v1')).toBe('ci7.identity.user.registered.v1');
      expect(scopedStreamName('identity')).toBe('LV_IDENTITY_ci7');
      expect(scopedConsumerName('inbox')).toBe('inbox_ci7');
      expect(unscopedSubject('ci7.identity.user.registered.v1')).toBe('identity.user.registered.v1');
    });

    it('is read at call time, not import time', () => {
      process.env.STACK_ID = 'first';
      expect(scopedSubject('a.b')).toBe('first.a.b');
      process.env.STACK_ID = 'second';
      expect(scopedSubject('a.b')).toBe('second.a.b');
    });
  });

  describe('rejects stack ids that would break isolation', () => {
    beforeEach(() => { delete process.env.STACK_ID; });

    it.each(['a.b', '*', '>', 'with space', 'tab\t', 'ünï', 'a/b'])('rejects %j', (bad) => {
      expect(() => scopedSubject('identity.x.v1', bad)).toThrow(/Invalid STACK_ID/);
      expect(() => scopedStreamName('identity', bad)).toThrow(/Invalid STACK_ID/);
      expect(() => scopedConsumerName('c', bad)).toThrow(/Invalid STACK_ID/);
      expect(() => unscopedSubject('x', bad)).toThrow(/Invalid STACK_ID/);
    });

    it('rejects a service name, whose subjects an unscoped stream would capture', () => {
      expect(() => scopedSubject('identity.user.registered.v1', 'identity')).toThrow(/Invalid STACK_ID/);
    });

    it('rejects a bad STACK_ID from the environment too', () => {
      process.env.STACK_ID = 'dev.1';
      expect(() => scopedSubject('identity.x.v1')).toThrow(/Invalid STACK_ID "dev.1"/);
    });
  });
});

describe('subjectMatches (client-side filtering on servers without multi-subject filters)', () => {
  it.each([
    ['identity.user.registered.v1', 'identity.user.registered.v1', true],
    ['identity.user.*.v1', 'identity.user.registered.v1', true],
    ['identity.>', 'identity.user.registered.v1', true],
    ['s1.identity.>', 's1.identity.user.registered.v1', true],
    ['identity.>', 'identity', false],
    ['identity.user.*', 'identity.user.registered.v1', false],
    ['identity.user.registered.v1', 'identity.user.registered', false],
    ['identity.user.registered', 'identity.user.registered.v1', false],
    ['s1.identity.>', 's2.identity.user.registered.v1', false],
    ['*.user.>', 'identity.user.registered.v1', true],
    ['*.identity.>', 'identity.user.registered.v1', false],
    ['*.*.>', 'a.b', false],
  ])('%s ~ %s -> %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});
