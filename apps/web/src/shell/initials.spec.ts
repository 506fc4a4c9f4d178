import { describe, expect, it } from '@jest/globals';
import { firstName, getInitials } from './initials.js';

describe('getInitials', () => {
  it('takes the first letters of the first and last names', () => {
    expect(getInitials('Sam Carter', 'sam@example.com')).toBe('SC');
    expect(getInitials('  mary   jane  watson ', 'x@example.com')).toBe('MW');
    expect(getInitials('Prince', 'p@example.com')).toBe('P');
  });

  it("falls back to the email's first letter, then to U", () => {
    expect(getInitials(null, 'dad@example.com')).toBe('D');
    expect(getInitials('   ', 'dad@example.com')).toBe('D');
    expect(getInitials(null, '')).toBe('U');
    expect(getInitials(undefined, undefined)).toBe('U');
  });

  it('handles letters outside the basic plane', () => {
    expect(getInitials('Émile Zola', null)).toBe('ÉZ');
    expect(getInitials('𝒜da Lovelace', null)).toBe('𝒜L');
  });
});

describe('firstName', () => {
  it('is the first word of the full name', () => {
    expect(firstName('Sam Carter')).toBe('Sam');
    expect(firstName('  ')).toBeNull();
    expect(firstName(null)).toBeNull();
  });
});
