import { describe, expect, it } from '@jest/globals';
import { addressWithoutSecrets, readLinkSecrets } from './link-secrets.js';

const at = (path: string) => {
  const url = new URL(path, 'https://vault.example.com');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};

describe('secrets in a link (issue 29)', () => {
  it('are read from the fragment first, then from the query (links sent before)', () => {
    expect(readLinkSecrets(at('/access#k=frag&owner=o1'))).toEqual({ key: 'frag', owner: 'o1', session: null });
    expect(readLinkSecrets(at('/access?k=old&owner=o2'))).toEqual({ key: 'old', owner: 'o2', session: null });
    expect(readLinkSecrets(at('/access?k=old#k=frag'))).toMatchObject({ key: 'frag' });
    expect(readLinkSecrets(at('/vault/view?session=s1'))).toEqual({ key: null, owner: null, session: 's1' });
    expect(readLinkSecrets(at('/vault/view#session=s2&access_key=a'))).toEqual({ key: 'a', owner: null, session: 's2' });
    // Any key-like parameter of spec 2's /vault/view, trimmed.
    expect(readLinkSecrets(at('/vault/view?owner=o&token=%20abc%20'))).toMatchObject({ key: 'abc', owner: 'o' });
  });

  it('leave the address, which keeps everything else: the owner (moved to the query), other parameters, a plain anchor', () => {
    expect(addressWithoutSecrets(at('/access#k=frag&owner=o1'))).toBe('/access?owner=o1');
    expect(addressWithoutSecrets(at('/access?k=old&owner=o2&tab=x'))).toBe('/access?owner=o2&tab=x');
    expect(addressWithoutSecrets(at('/vault/view?session=s1'))).toBe('/vault/view');
    expect(addressWithoutSecrets(at('/vault/view?token=t&key=k&view=v&access=a&access_key=b'))).toBe('/vault/view');
    expect(addressWithoutSecrets(at('/access#faq'))).toBe('/access#faq');
    expect(addressWithoutSecrets(at('/access'))).toBe('/access');
  });
});
