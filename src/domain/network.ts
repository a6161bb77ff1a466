/**
 * The client "network" that per-address limits count against. An IPv4 address is one
 * network; an IPv6 address is counted by its /64 prefix, because a single subscriber is
 * normally given a whole /64 (RFC 6177) and can rotate through 2^64 addresses at will.
 * IPv4-mapped IPv6 addresses (`::ffff:192.0.2.1`) count as the IPv4 address.
 */

import { IPV4, ipv6Hextets } from './ip';

/**
 * The key a per-address limit counts `ip` under: the IPv4 address itself, `<first four
 * hextets>::/64` for IPv6, and `unknown` for a missing or malformed value (all of which then
 * share one budget, which is the safe side).
 */
export function clientNetwork(ip: string | null | undefined): string {
  const value = ip?.trim() ?? '';
  if (IPV4.test(value)) return value;
  if (!value.includes(':')) return 'unknown';
  const hextets = ipv6Hextets(value);
  if (!hextets) return 'unknown';
  // ::ffff:a.b.c.d is an IPv4 client.
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    const [hi, lo] = [hextets[6] as number, hextets[7] as number];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${hextets
    .slice(0, 4)
    .map((h) => h.toString(16))
    .join(':')}::/64`;
}
