/**
 * What a verifier is handed: a compact VC-JWT, the JSON of a credential, or a baked badge (a PNG
 * with an `iTXt` chunk `openbadgecredential`, or an SVG with an `<openbadges:credential>`
 * element), as bytes. {@link readPresented} finds the credential in it. Plain TypeScript.
 */
import { BadgeError, extractFromPng, extractFromSvg } from '../certificates/badge';

export type Presented =
  | { form: 'jwt'; jwt: string; container: 'text' | 'png' | 'svg' }
  | { form: 'json'; credential: Record<string, unknown>; container: 'text' | 'png' | 'svg' };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];
/** Three base64url segments: a compact JWS (the shape only; the segments are decoded later). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A credential as text: a compact JWS, or a JSON object (an embedded-proof credential). */
function fromText(text: string, container: Presented['container']): Presented | { error: string } {
  const trimmed = text.trim();
  if (COMPACT_JWS.test(trimmed)) return { form: 'jwt', jwt: trimmed, container };
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (isRecord(parsed)) return { form: 'json', credential: parsed, container };
    } catch {
      return { error: 'The text is neither a compact VC-JWT nor valid JSON.' };
    }
  }
  return { error: 'The text is neither a compact VC-JWT (three base64url segments) nor a JSON credential.' };
}

/** The image type a raw request body was declared as (its `Content-Type`), when it was sent as bytes. */
export type DeclaredImage = 'png' | 'svg';

/**
 * The credential in `bytes`: a PNG's `openbadgecredential` chunk, an SVG's
 * `<openbadges:credential verify="…">` (or its text content), else the bytes as UTF-8 text.
 * Bytes sent as `image/png` or `image/svg+xml` (`declared`) must be that image.
 */
export function readPresented(bytes: Uint8Array, declared?: DeclaredImage): Presented | { error: string } {
  if (bytes.length === 0) return { error: 'Nothing was sent.' };
  const png = PNG_SIGNATURE.every((b, i) => bytes[i] === b);
  if (declared === 'png' && !png) return { error: 'The body is declared image/png but is not a PNG.' };
  if (declared === 'svg' && png) return { error: 'The body is declared image/svg+xml but is a PNG.' };
  const found = readBytes(bytes, png);
  if (declared === 'svg' && !('error' in found) && found.container !== 'svg')
    return { error: 'The body is declared image/svg+xml but is not an SVG document.' };
  return found;
}

function readBytes(bytes: Uint8Array, png: boolean): Presented | { error: string } {
  if (png) {
    let baked: string | null;
    try {
      baked = extractFromPng(bytes);
    } catch (error) {
      return { error: `The PNG is damaged (${error instanceof BadgeError ? error.message : 'unreadable'}).` };
    }
    if (baked === null)
      return { error: 'The PNG carries no Open Badges credential (no iTXt "openbadgecredential").' };
    return fromText(baked, 'png');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { error: 'The bytes are neither a PNG nor UTF-8 text.' };
  }
  if (
    /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg\b/i.test(text) ||
    /<svg\b/i.test(text.slice(0, 2048))
  ) {
    const baked = extractFromSvg(text) ?? svgElementText(text);
    if (baked === null)
      return { error: 'The SVG carries no Open Badges credential (<openbadges:credential>).' };
    return fromText(baked, 'svg');
  }
  return fromText(text, 'text');
}

/** OB 3.0 also allows the credential as the element's text (`<openbadges:credential><![CDATA[…]]>`). */
function svgElementText(svg: string): string | null {
  const match = /<openbadges:credential\b[^>]*>([\s\S]*?)<\/openbadges:credential>/.exec(svg);
  const inner = match?.[1]?.trim();
  if (!inner) return null;
  const cdata = /^<!\[CDATA\[([\s\S]*)\]\]>$/.exec(inner);
  return cdata ? (cdata[1] ?? null) : inner;
}
