import { extractAccessKey } from './access-keys.js';
import { keyLinkUrl, readKeyLink } from './key-links.js';

const key = '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10';
const owner = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';

describe('key links (issue 29)', () => {
  it('put the key and the owner in the fragment of /access', () => {
    expect(keyLinkUrl('https://vault.example.com/', key, owner)).toBe(`https://vault.example.com/access#k=${key}&owner=${owner}`);
  });

  it('are read from the fragment first, and from the query for e-mails sent before', () => {
    expect(readKeyLink(new URL(`https://v.example/access#k=${key}&owner=${owner}`))).toEqual({ key, owner });
    expect(readKeyLink(new URL(`https://v.example/access?k=${key}&owner=${owner}`))).toEqual({ key, owner });
    expect(readKeyLink(new URL(`https://v.example/vault/view#access_key=${key}`))).toEqual({ key, owner: null });
    expect(readKeyLink(new URL('https://v.example/access'))).toEqual({ key: null, owner: null });
  });

  it('give their key to the paste field, in either form', () => {
    expect(extractAccessKey(`https://vault.example.com/access#k=${key}&owner=${owner}`)).toBe(key);
    expect(extractAccessKey(`https://vault.example.com/access?k=${key}`)).toBe(key);
    expect(extractAccessKey(`  ${key} `)).toBe(key);
  });
});
