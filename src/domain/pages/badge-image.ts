/**
 * The image of a baked badge shown back on the /verify result (decision 0358): the bytes that were
 * checked, as a `data:` URL for an `<img>`. Only a PNG or an SVG the reader found a credential in
 * (`container`), typed by what the reader found, never by what the sender declared; an SVG shown
 * as an image runs no script and loads nothing. Never a URL the credential names (`achievement.image`):
 * fetching it from the page would tell a third party who looks at the badge. Plain TypeScript.
 */

const MEDIA_TYPES = { png: 'image/png', svg: 'image/svg+xml' } as const;

/** Base64 of `bytes`, in slices (a spread of a megabyte into one call would exceed the stack). */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/** The `data:` URL of a baked badge's bytes, or null when they were not read as a baked PNG or SVG. */
export function bakedBadgeDataUrl(bytes: Uint8Array, container: string | null): string | null {
  if (container !== 'png' && container !== 'svg') return null;
  return `data:${MEDIA_TYPES[container]};base64,${base64Of(bytes)}`;
}

/** Image types a credential's own `data:` image is shown as, by what its bytes begin with. */
function sniffImage(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP')
    return 'image/webp';
  // An SVG: text (after a BOM and whitespace, an XML declaration or comments) with an <svg> root.
  const head = new TextDecoder().decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
  if (/^\s*</.test(head) && /<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return null;
}

/** The bytes of base64 text (`url`: the base64url alphabet, padding optional); throws when it is not base64. */
function bytesOf(text: string, url = false): Uint8Array {
  const standard = url ? text.replaceAll('-', '+').replaceAll('_', '/') : text;
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Most bytes a credential's own image may have to be shown (the verifier's upload limit). */
const MAX_CARRIED_IMAGE_BYTES = 1024 * 1024;

/** `credentialSubject.achievement.image` of a credential (an OB 3.0 JSON object), as a string. */
function achievementImageOf(credential: unknown): string | null {
  if (typeof credential !== 'object' || credential === null) return null;
  const subjects = (credential as { credentialSubject?: unknown }).credentialSubject;
  for (const subject of Array.isArray(subjects) ? subjects : [subjects]) {
    const image = (subject as { achievement?: { image?: unknown } } | null)?.achievement?.image;
    const id = typeof image === 'string' ? image : (image as { id?: unknown } | null)?.id;
    if (typeof id === 'string') return id;
  }
  return null;
}

/**
 * The image a credential carries in itself (`achievement.image` as a `data:` URL, base64), as a
 * `data:` URL for an `<img>` on the /verify result (decision 0358): typed by what its bytes are (a
 * PNG, JPEG, GIF, WebP or SVG; anything else is not shown), never by what the URL declares. Nothing
 * is fetched: an image the credential names by any other URL is null. `credential`: the text that
 * was checked (a compact VC-JWT or the JSON).
 */
export function carriedImageDataUrl(credential: string | null): string | null {
  if (!credential) return null;
  let parsed: unknown;
  try {
    const text = credential.trim();
    if (text.startsWith('{')) parsed = JSON.parse(text);
    else {
      const payload = text.split('.')[1];
      if (!payload) return null;
      const claims = JSON.parse(new TextDecoder().decode(bytesOf(payload, true))) as { vc?: unknown };
      parsed = claims.vc ?? claims;
    }
  } catch {
    return null;
  }
  const url = achievementImageOf(parsed);
  const m = url ? /^data:[^,;]*(?:;[^,;=]+=[^,;]*)*;base64,([A-Za-z0-9+/]*={0,2})$/.exec(url) : null;
  if (!m?.[1] || m[1].length > Math.ceil(MAX_CARRIED_IMAGE_BYTES / 3) * 4) return null;
  let bytes: Uint8Array;
  try {
    bytes = bytesOf(m[1]);
  } catch {
    return null;
  }
  const type = sniffImage(bytes);
  return type ? `data:${type};base64,${m[1]}` : null;
}
