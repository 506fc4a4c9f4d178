import { addressBucket } from './address-bucket.js';

describe('addressBucket: what a per-address limit counts against', () => {
  it.each([
    ['an IPv4 address, as it is', '203.0.113.7', '203.0.113.7'],
    ['an IPv6 address, by its /64', '2001:db8:85a3:0:8a2e:370:7334:1', '2001:db8:85a3:0::/64'],
    ['another address of the same /64, the same bucket', '2001:0DB8:85a3::ffff:1', '2001:db8:85a3:0::/64'],
    ['a compressed address', '2001:db8::1', '2001:db8:0:0::/64'],
    ['the loopback', '::1', '0:0:0:0::/64'],
    ['a zone id and brackets, ignored', '[fe80::1%eth0]', 'fe80:0:0:0::/64'],
    ['an IPv4-mapped address, as its IPv4', '::ffff:198.51.100.4', '198.51.100.4'],
    ['a NAT64 address with a dotted tail', '64:ff9b::198.51.100.4', '64:ff9b:0:0::/64'],
    ['no address, one shared bucket', undefined, 'unknown'],
    ['a blank address, the same', '  ', 'unknown'],
  ])('%s', (_label, ip, bucket) => {
    expect(addressBucket(ip)).toBe(bucket);
  });

  it('gives different /64s different buckets', () => {
    expect(addressBucket('2001:db8:85a3:1::1')).not.toBe(addressBucket('2001:db8:85a3:2::1'));
  });
});
