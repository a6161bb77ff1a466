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
