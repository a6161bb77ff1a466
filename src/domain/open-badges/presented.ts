/**
 * What a verifier is handed: a compact VC-JWT, the JSON of a credential, or a baked badge (a PNG
 * with an `iTXt` chunk `openbadgecredential`, or an SVG with an `<openbadges:credential>`
 * element), as bytes. {@link readPresented} finds the credential in it. Plain TypeScript.
 */
import { jsonTooDeep, MAX_JSON_DEPTH } from '../json-depth';
import { readBakedPng, readBakedSvg } from './baked';

export type Presented =
  | { form: 'jwt'; jwt: string; container: 'text' | 'png' | 'svg' }
  | {
      form: 'json';
      credential: Record<string, unknown>;
      /** The JSON text as it was read (what the answer names as the credential verified). */
      text: string;
      container: 'text' | 'png' | 'svg';
    };

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
    if (jsonTooDeep(trimmed))
      return { error: `The JSON credential nests deeper than ${MAX_JSON_DEPTH} levels; not read.` };
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (isRecord(parsed)) return { form: 'json', credential: parsed, text: trimmed, container };
    } catch {
      return { error: 'The text is neither a compact VC-JWT nor valid JSON.' };
    }
  }
  return { error: 'The text is neither a compact VC-JWT (three base64url segments) nor a JSON credential.' };
}

/** The image type a raw request body was declared as (its `Content-Type`), when it was sent as bytes. */
export type DeclaredImage = 'png' | 'svg';

/**
 * How bytes came: declared as an image (a request body's `Content-Type`), or fetched from a URL
 * whose answer named `mediaType` (its `Content-Type` essence, '' when it named none).
 */
export type Declared = DeclaredImage | { fetchedAs: string };

/** Media types a credential is served as that say nothing about which form it is in: read by sniffing. */
const SNIFFED =
  /^(application\/([\w.+-]+\+)?(json|jwt)|application\/vc|application\/octet-stream|text\/plain|(application|text)\/xml|)$/;

/**
 * What a fetched answer's media type says about its bytes: a PNG or an SVG to be that image,
 * text or JSON (or nothing said) to be sniffed, a web page or another image never a credential.
 */
export function declaredByMediaType(mediaType: string): { image?: DeclaredImage } | { error: string } {
  if (mediaType === 'image/png') return { image: 'png' };
  if (mediaType === 'image/svg+xml') return { image: 'svg' };
  if (SNIFFED.test(mediaType)) return {};
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml')
    return { error: `The URL answered a web page (${mediaType}), not a credential or a baked badge.` };
  if (mediaType.startsWith('image/'))
    return { error: `The URL answered an ${mediaType} image: only a PNG or an SVG can carry a credential.` };
  return { error: `The URL answered ${mediaType.slice(0, 100)}, not a credential or a baked badge.` };
}

/**
 * The credential in `bytes`: a PNG's `openbadgecredential` chunk, an SVG's
 * `<openbadges:credential verify="…">` (or its text content), else the bytes as UTF-8 text.
 * Bytes sent as `image/png` or `image/svg+xml` (`declared`) must be that image; fetched bytes are
 * read as their answer's media type says ({@link declaredByMediaType}).
 */
export function readPresented(bytes: Uint8Array, how?: Declared): Presented | { error: string } {
  const fetched = typeof how === 'object';
  if (bytes.length === 0) return { error: fetched ? 'The URL answered an empty body.' : 'Nothing was sent.' };
  let declared: DeclaredImage | undefined;
  if (typeof how === 'object') {
    const said = declaredByMediaType(how.fetchedAs);
    if ('error' in said) return said;
    declared = said.image;
  } else declared = how;
  const png = PNG_SIGNATURE.every((b, i) => bytes[i] === b);
  const body = fetched ? 'The answer' : 'The body';
  if (declared === 'png' && !png) return { error: `${body} is declared image/png but is not a PNG.` };
  if (declared === 'svg' && png) return { error: `${body} is declared image/svg+xml but is a PNG.` };
  const found = readBytes(bytes, png);
  if (declared === 'svg' && !('error' in found) && found.container !== 'svg')
    return { error: `${body} is declared image/svg+xml but is not an SVG document.` };
  return found;
}

function readBytes(bytes: Uint8Array, png: boolean): Presented | { error: string } {
  if (png) {
    const baked = readBakedPng(bytes);
    return 'error' in baked ? baked : fromText(baked.credential, 'png');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { error: 'The bytes are neither a PNG nor UTF-8 text.' };
  }
  // Markup is never a VC-JWT or JSON: read it as the SVG it must be (no pattern guessing, which
  // a crafted prefix could make slow or make disagree with the XML reader).
  if (
    text
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('<')
  ) {
    const baked = readBakedSvg(text);
    return 'error' in baked ? baked : fromText(baked.credential, 'svg');
  }
  return fromText(text, 'text');
}
