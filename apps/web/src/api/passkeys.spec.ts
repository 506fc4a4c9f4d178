import { describe, expect, it } from '@jest/globals';
import { PasskeyMessages } from '@lv/contracts';
import { PasskeyCancelled, passkeyErrorMessage, UserFacingError, wrongSiteMessage } from './passkeys.js';

describe('passkey refusals in the page’s words', () => {
  it('on an IP address, names the localhost address of the same stack, where passkeys work', () => {
    expect(wrongSiteMessage({ protocol: 'http:', hostname: '127.0.0.1', port: '3000' })).toBe(`${PasskeyMessages.wrongSite} Open http://localhost:3000 to use them.`);
    expect(wrongSiteMessage({ protocol: 'http:', hostname: '[::1]', port: '' })).toBe(`${PasskeyMessages.wrongSite} Open http://localhost to use them.`);
  });

  it('on a named site (a misconfigured PUBLIC_URL), says only that the site is not the passkeys’ one', () => {
    expect(wrongSiteMessage({ protocol: 'https:', hostname: 'vault.example.org', port: '' })).toBe(PasskeyMessages.wrongSite);
  });

  it('shows a browser refusal’s own words, and the fallback for anything else', () => {
    expect(passkeyErrorMessage(new PasskeyCancelled(), 'fallback')).toBe(PasskeyMessages.cancelled);
    expect(passkeyErrorMessage(new UserFacingError('said plainly'), 'fallback')).toBe('said plainly');
    expect(passkeyErrorMessage(new Error('TypeError: internals'), 'fallback')).toBe('fallback');
  });
});
