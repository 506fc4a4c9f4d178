import { isUuid } from './validation.js';

// The one UUID check every service and the gateway use on ids from paths, queries and signed links.
describe('isUuid', () => {
  it('accepts a UUID of any version, in either case', () => {
    for (const id of ['0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10', '0D5F6B3E-4A51-4C7E-9C39-2B7F8D1E6A10', '6ba7b810-9dad-11d1-80b4-00c04fd430c8', '00000000-0000-0000-0000-000000000000']) {
      expect(isUuid(id)).toBe(true);
    }
  });

  it('refuses anything else, strings or not', () => {
    for (const value of ['', 'not-a-uuid', '0d5f6b3e4a514c7e9c392b7f8d1e6a10', ' 0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10', '0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10\n', '{0d5f6b3e-4a51-4c7e-9c39-2b7f8d1e6a10}', 42, null, undefined]) {
      expect(isUuid(value)).toBe(false);
    }
  });
});
