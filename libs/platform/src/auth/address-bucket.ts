import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client address a per-address limit counts against. IPv4 addresses count one by one. An IPv6
 * client usually holds a whole /64 (one home, one phone) and can take any address in it, so IPv6
 * limits count per /64: a guesser cannot get a fresh budget by moving to the next address. An
 * IPv4-mapped IPv6 address (::ffff:203.0.113.7) is its IPv4 address. No address at all (a direct
 * NATS call) is one shared, strict bucket.
 */
export function addressBucket(ip: string | undefined): string {
  const address = ip?.trim().replace(/^\[|\]$/g, '').split('%', 1)[0] ?? '';
  if (!address) return 'unknown';
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  return `${expandIPv6(address).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of a valid IPv6 address, lower case, without leading zeros ("::" filled in). */
function expandIPv6(address: string): string[] {
  // A trailing dotted quad (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is the last two hextets.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let text = address.toLowerCase();
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...middle, ...right].map((part) => Number.parseInt(part, 16).toString(16));
}
