/**
 * IP address literals, parsed once for every caller: the per-address limits (network.ts) and
 * the webhook targets' SSRF checks (webhooks/targets.ts).
 */

/** A dotted-quad IPv4 address: four decimal octets, no leading zeros. */
export const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEXTET = /^[0-9a-f]{1,4}$/;

/** The four octets of a dotted IPv4 address, or null. */
export function ipv4Octets(address: string): number[] | null {
  return IPV4.test(address) ? address.split('.').map(Number) : null;
}

/**
 * The eight hextets of an IPv6 address (a zone id ignored, an embedded dotted IPv4 tail
 * allowed), or null if malformed. A URL host's brackets are the caller's to strip.
 */
export function ipv6Hextets(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(':')) return null;
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    // An embedded IPv4 address is the last two hextets.
    const v4 = ipv4Octets(last);
    if (!v4) return null;
    const [a, b, c, d] = v4 as [number, number, number, number];
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
