import { viewerOf, type RpcAccess } from '@lv/platform/nest';
import { expectedOutcome } from './reader-matrix.js';

// What the matrix expects of each caller, from a declaration alone: the other half of its verdict.
describe('reader matrix expectations', () => {
  const read: RpcAccess = { access: 'read', readers: ['owner', viewerOf('letters')] };
  const write: RpcAccess = { access: 'write', writers: ['owner'] };

  it('expects the guard to refuse by code: anonymous, expired and revoked callers first', () => {
    expect(expectedOutcome(read, 'anonymous', [])).toBe('UNAUTHENTICATED');
    expect(expectedOutcome(read, 'expired viewer', ['letters'])).toBe('SESSION_EXPIRED');
    expect(expectedOutcome(read, 'revoked viewer', ['letters'])).toBe('SESSION_EXPIRED');
    expect(expectedOutcome({ access: 'public' }, 'revoked viewer', [])).toBe('allow');
  });

  it('lets viewers read only with a declared scope, and never write', () => {
    expect(expectedOutcome(read, 'viewer of this vault', ['letters'])).toBe('allow');
    expect(expectedOutcome(read, 'viewer of this vault without the scope', ['timeline'])).toBe('FORBIDDEN');
    expect(expectedOutcome(write, 'viewer of this vault', ['letters', 'timeline'])).toBe('FORBIDDEN');
    expect(expectedOutcome(read, 'operator', [])).toBe('FORBIDDEN');
    expect(expectedOutcome(write, 'another owner', [])).toBe('allow');
  });

  it('expects an undeclared handler to be refused', () => {
    expect(expectedOutcome(undefined, 'owner', [])).toBe('FORBIDDEN');
  });
});
