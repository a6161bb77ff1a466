/**
 * Webhook targets and SSRF (docs/webhooks.md → Where we deliver). A target is an `https` URL
 * whose host is a public address: never private, loopback, link-local (cloud metadata lives
 * there), CGNAT, unique-local, multicast, reserved or documentation space. IP literals are
 * checked at registration; host names are resolved and every answer checked before each
 * delivery. Plain `http` is allowed only for loopback hosts when the development setting
 * (`WEBHOOKS_ALLOW_HTTP_LOCALHOST`) says so.
 */

import { ipv6Hextets as bareHextets, ipv4Octets } from '../ip';

export { ipv4Octets } from '../ip';

/** The eight hextets of an IPv6 address, bracketed as in a URL's host or bare, or null. */
export function ipv6Hextets(address: string): number[] | null {
  const bracketed = address.startsWith('[') && address.endsWith(']');
  return bareHextets(bracketed ? address.slice(1, -1) : address);
}

/** [first octets, prefix length, why] for IPv4 space no webhook may reach. */
const V4_BLOCKED: [number[], number, string][] = [
  [[0], 8, 'this network'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'carrier-grade NAT'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local (cloud metadata)'],
  [[172, 16], 12, 'private'],
  [[192, 0, 0], 24, 'IETF protocol assignments'],
  [[192, 0, 2], 24, 'documentation'],
  [[192, 88, 99], 24, '6to4 relay'],
  [[192, 168], 16, 'private'],
  [[198, 18], 15, 'benchmarking'],
  [[198, 51, 100], 24, 'documentation'],
  [[203, 0, 113], 24, 'documentation'],
  [[224], 4, 'multicast'],
  [[240], 4, 'reserved'],
];

function v4Matches(octets: number[], prefix: number[], bits: number): boolean {
  const value = ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
  const base =
    (((prefix[0] ?? 0) << 24) | ((prefix[1] ?? 0) << 16) | ((prefix[2] ?? 0) << 8) | (prefix[3] ?? 0)) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (value & mask) === (base & mask);
}

function v4Reason(octets: number[]): string | null {
  for (const [prefix, bits, why] of V4_BLOCKED) if (v4Matches(octets, prefix, bits)) return why;
  return null;
}

const isV6Loopback = (h: number[]) => h.slice(0, 7).every((x) => x === 0) && h[7] === 1;

function v6Reason(h: number[]): string | null {
  const [a = 0, b = 0, c = 0] = h;
  if (h.every((x) => x === 0)) return 'unspecified';
  if (isV6Loopback(h)) return 'loopback';
  // IPv4 in the last 32 bits, where the IPv4 inside decides: IPv4-mapped (::ffff:0:0/96),
  // IPv4-compatible (::/96), IPv4-translated (SIIT, ::ffff:0:0:0/96) and NAT64 (64:ff9b::/96).
  const embedded = [h[6]! >> 8, h[6]! & 255, h[7]! >> 8, h[7]! & 255];
  if (h.slice(0, 5).every((x) => x === 0) && (h[5] === 0xffff || h[5] === 0)) return v4Reason(embedded);
  if (h.slice(0, 4).every((x) => x === 0) && h[4] === 0xffff && h[5] === 0) return v4Reason(embedded);
  if (a === 0x64 && b === 0xff9b && h.slice(2, 6).every((x) => x === 0)) return v4Reason(embedded);
  // Refused whatever follows. NAT64 local-use (64:ff9b:1::/48, RFC 8215) is an operator's own
  // translator, and where the IPv4 sits depends on the prefix length it chose (RFC 6052), so it
  // cannot be read reliably. Teredo (2001::/32) hides the client's IPv4 (inverted) and is obsolete:
  // no receiver lives there. Benchmarking (2001:2::/48), like its IPv4 twin 198.18/15.
  if (a === 0x64 && b === 0xff9b && c === 1) return 'NAT64 local-use';
  if (a === 0x2001 && b === 0) return 'Teredo';
  if (a === 0x2001 && b === 2 && c === 0) return 'benchmarking';
  if ((a & 0xfe00) === 0xfc00) return 'unique-local';
  if ((a & 0xffc0) === 0xfe80) return 'link-local';
  if ((a & 0xffc0) === 0xfec0) return 'site-local';
  if ((a & 0xff00) === 0xff00) return 'multicast';
  if (a === 0x2001 && b === 0x0db8) return 'documentation';
  if (a === 0x2002) return v4Reason([h[1]! >> 8, h[1]! & 255, h[2]! >> 8, h[2]! & 255]) ?? null;
  if (a === 0x100 && b === 0 && h[2] === 0 && h[3] === 0) return 'discard-only';
  return null;
}

/** Why no webhook may be delivered to this IP address, or null when it is public (or not an IP at all). */
export function forbiddenAddressReason(address: string): string | null {
  const v4 = ipv4Octets(address);
  if (v4) return v4Reason(v4);
  // An IPv6 address as a resolver writes it: hex digits, colons and an optional dotted tail; no
  // zone id, no spaces.
  const v6 = /^[0-9A-Fa-f:.]+$/.test(address) ? ipv6Hextets(address) : null;
  if (v6) return v6Reason(v6);
  // Anything else is not an address this check can vouch for ("127.1", "0x7f000001", "0177.0.0.1",
  // a name, trailing spaces, a zone id): fail closed, it is never fetched.
  return 'malformed (not a canonical IP)';
}

export const isIpLiteral = (host: string) => ipv4Octets(host) !== null || ipv6Hextets(host) !== null;

/** Names that are loopback or a cloud's metadata service whatever DNS says. */
const LOOPBACK_NAMES = /^(localhost|localhost\.localdomain|.*\.localhost)$/;
/** The names that are loopback by definition (RFC 6761 §6.3), never sent to DNS. */
const RESERVED_LOOPBACK_NAMES = /^(localhost|.*\.localhost)$/;
const METADATA_NAMES = /^(metadata|metadata\.google\.internal|.*\.internal|instance-data(\.ec2\.internal)?)$/;

/**
 * Whether a URL's host is loopback without asking DNS: `localhost`, `*.localhost`, an IPv4
 * literal in 127/8, or `::1`. A DNS name that merely looks like one (`127.0.0.1.nip.io`) is not:
 * its owner decides where it points.
 */
export function isLoopbackHost(host: string): boolean {
  if (RESERVED_LOOPBACK_NAMES.test(host)) return true;
  const v4 = ipv4Octets(host);
  if (v4) return v4[0] === 127;
  const v6 = ipv6Hextets(host);
  return v6 !== null && isV6Loopback(v6);
}

export type TargetCheck =
  | { ok: true; url: URL; host: string; needsResolution: boolean }
  | { ok: false; reason: string };

/**
 * The static check of a target URL (at registration and before each delivery): scheme, no
 * credentials, and an IP literal's address. A host name still has to be resolved and its
 * addresses checked (`needsResolution`), which only the delivery does.
 */
export function checkTargetUrl(raw: string, options: { allowHttpLocalhost: boolean }): TargetCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'The URL is not valid.' };
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if (url.username || url.password) return { ok: false, reason: 'The URL may not carry credentials.' };
  const devLoopback = options.allowHttpLocalhost && isLoopbackHost(host);
  if (url.protocol === 'http:' && !devLoopback)
    return {
      ok: false,
      reason: 'Webhook URLs must use https (plain http only for localhost in development).',
    };
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: 'Webhook URLs must use https.' };
  if (devLoopback) return { ok: true, url, host: bare, needsResolution: false };
  if (LOOPBACK_NAMES.test(host)) return { ok: false, reason: 'The URL points at a loopback address.' };
  if (METADATA_NAMES.test(host))
    return { ok: false, reason: 'The URL points at a metadata or internal name.' };
  if (isIpLiteral(bare)) {
    const why = forbiddenAddressReason(bare);
    return why
      ? { ok: false, reason: `The URL points at a ${why} address.` }
      : { ok: true, url, host: bare, needsResolution: false };
  }
  if (!host.includes('.')) return { ok: false, reason: 'The URL needs a fully qualified host name.' };
  return { ok: true, url, host: bare, needsResolution: true };
}
