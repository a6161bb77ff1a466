/**
 * The client "network" that per-address limits count against. An IPv4 address is one
 * network; an IPv6 address is counted by its /64 prefix, because a single subscriber is
 * normally given a whole /64 (RFC 6177) and can rotate through 2^64 addresses at will.
 * IPv4-mapped IPv6 addresses (`::ffff:192.0.2.1`) count as the IPv4 address.
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEXTET = /^[0-9a-f]{1,4}$/;

/** The eight hextets of an IPv6 address (a trailing dotted IPv4 part allowed), or null if malformed. */
function ipv6Hextets(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // An embedded IPv4 address is the last two hextets.
    if (!IPV4.test(last)) return null;
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    if (!groups.every((g) => HEXTET.test(g))) return null;
    return groups.map((g) => Number.parseInt(g, 16));
  };
  const head = parse(halves[0] ?? '');
  const rest = halves.length === 2 ? parse(halves[1] ?? '') : [];
  if (!head || !rest) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - rest.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...rest];
}

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
