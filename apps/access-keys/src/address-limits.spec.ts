import { addressLimited } from './address-limits.js';

describe('addressLimited: the refusal of an address past its budget', () => {
  it('says when the fixed window ends, in whole seconds (at least 1)', () => {
    const hour = 3600 * 1000;
    expect(addressLimited('Wait.', 3600, 10 * hour).toBody()).toEqual({ code: 'RATE_LIMITED', message: 'Wait.', retryAfter: 3600 });
    expect(addressLimited('Wait.', 3600, 10 * hour + 1000).toBody().retryAfter).toBe(3599);
    expect(addressLimited('Wait.', 60, 10 * hour + 59_500).toBody().retryAfter).toBe(1);
  });
});
