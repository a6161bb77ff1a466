/**
 * Baked badges (Open Badges 3.0 § "Baked Badge"): an image that carries its signed credential, so
 * the picture a holder posts is itself verifiable. Pure: no bindings.
 *
 * - **SVG.** `xmlns:openbadges="https://purl.imsglobal.org/ob/v3p0"` on the root `<svg>`, and
 *   directly after it one `<openbadges:credential verify="…">` whose `verify` attribute is the
 *   compact JWS (the VC-JWT), as the specification says for credentials secured with VC-JWT (the
 *   element's body is only used for credentials with an embedded proof).
 * - **PNG.** One `iTXt` chunk with keyword `openbadgecredential`, compression flag 0 (the
 *   specification forbids compression), empty language tag and translated keyword, and the
 *   compact JWS as its text; inserted before `IEND`, with its CRC-32.
 *
 * Baking refuses an image that already carries a credential (the specification allows one only).
 * Extraction follows the specification: the first such element or chunk.
 */

export const OB3_NAMESPACE = 'https://purl.imsglobal.org/ob/v3p0';
export const PNG_KEYWORD = 'openbadgecredential';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const xmlAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export class BadgeError extends Error {}

// ---------------------------------------------------------------------------------------------
// SVG

/** Bakes `jwt` into an SVG document (one whose root element is `<svg …>`). */
export function bakeSvg(svg: string, jwt: string): string {
  if (svg.includes('<openbadges:credential')) throw new BadgeError('the SVG already carries a credential');
  const open = /<svg\b[^>]*>/.exec(svg);
  if (!open) throw new BadgeError('no <svg> element');
  const tag = open[0];
  const withNamespace = tag.includes('xmlns:openbadges=')
    ? tag
    : tag.replace(/^<svg\b/, `<svg xmlns:openbadges="${OB3_NAMESPACE}"`);
  const element = `<openbadges:credential verify="${xmlAttribute(jwt)}"></openbadges:credential>`;
  const end = open.index + tag.length;
  return `${svg.slice(0, open.index)}${withNamespace}${element}${svg.slice(end)}`;
}

/** The VC-JWT of the first `<openbadges:credential verify="…">`, or null. */
export function extractFromSvg(svg: string): string | null {
  const element = /<openbadges:credential\b([^>]*)>/.exec(svg);
  if (!element) return null;
  const verify = /\bverify\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(element[1]!);
  const value = verify?.[1] ?? verify?.[2];
  if (value === undefined) return null;
  return value
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

// ---------------------------------------------------------------------------------------------
// PNG

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, as PNG uses it) over the bytes. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

type Chunk = { type: string; start: number; data: Uint8Array; end: number };

/** The chunks of a PNG, checked: signature, lengths and every CRC. */
export function pngChunks(png: Uint8Array): Chunk[] {
  if (png.length < 8 || PNG_SIGNATURE.some((b, i) => png[i] !== b)) throw new BadgeError('not a PNG');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: Chunk[] = [];
  let offset = 8;
  while (offset < png.length) {
    if (offset + 12 > png.length) throw new BadgeError('truncated PNG chunk');
    const length = view.getUint32(offset);
    const end = offset + 12 + length;
    if (end > png.length) throw new BadgeError('truncated PNG chunk');
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    if (crc32(typeAndData) !== view.getUint32(offset + 8 + length)) throw new BadgeError('bad PNG chunk CRC');
    const type = String.fromCharCode(...typeAndData.subarray(0, 4));
    chunks.push({ type, start: offset, data: typeAndData.subarray(4), end });
    offset = end;
    if (type === 'IEND') break;
  }
  if (chunks[0]?.type !== 'IHDR' || chunks[chunks.length - 1]?.type !== 'IEND') {
    throw new BadgeError('a PNG must start with IHDR and end with IEND');
  }
  return chunks;
}

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** An iTXt chunk's fields (PNG 1.2 § 11.3.4.5), or null when it is not well formed. */
function parseITxt(data: Uint8Array) {
  const nul = data.indexOf(0);
  if (nul < 1 || nul > 79 || nul + 2 >= data.length) return null;
  const keyword = latin1.decode(data.subarray(0, nul));
  const compressed = data[nul + 1];
  const languageEnd = data.indexOf(0, nul + 3);
  if (languageEnd < 0) return null;
  const translatedEnd = data.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0) return null;
  try {
    return { keyword, compressed: compressed !== 0, text: utf8.decode(data.subarray(translatedEnd + 1)) };
  } catch {
    return null;
  }
}

/** An uncompressed `iTXt` chunk (keyword, empty language tag and translated keyword, UTF-8 text). */
function iTxtChunk(keywordText: string, value: string): Uint8Array {
  const keyword = encoder.encode(keywordText);
  const text = encoder.encode(value);
  // keyword \0, compression flag 0, compression method 0, language tag "" \0, translated keyword "" \0, text
  const data = new Uint8Array(keyword.length + 5 + text.length);
  data.set(keyword, 0);
  data.set(text, keyword.length + 5);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(encoder.encode('iTXt'), 4);
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

/** The PNG with `inserted` chunks placed just before `IEND`. */
function beforeIend(png: Uint8Array, chunks: Chunk[], inserted: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const iend = chunks[chunks.length - 1]!;
  const size = inserted.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(iend.start + size + (iend.end - iend.start));
  out.set(png.subarray(0, iend.start), 0);
  let at = iend.start;
  for (const chunk of inserted) {
    out.set(chunk, at);
    at += chunk.length;
  }
  out.set(png.subarray(iend.start, iend.end), at);
  return out;
}

/** Bakes `jwt` into a PNG: an uncompressed `iTXt` chunk `openbadgecredential`, before `IEND`. */
export function bakePng(png: Uint8Array, jwt: string): Uint8Array<ArrayBuffer> {
  const chunks = pngChunks(png);
  if (chunks.some((c) => c.type === 'iTXt' && parseITxt(c.data)?.keyword === PNG_KEYWORD)) {
    throw new BadgeError('the PNG already carries a credential');
  }
  return beforeIend(png, chunks, [iTxtChunk(PNG_KEYWORD, jwt)]);
}

/**
 * Names a PNG with the PNG standard text keywords (`Title`, `Description`; PNG 1.2 § 11.3.4.2),
 * as `iTXt` so any script survives: what an achievement's `image` serves (no credential baked).
 */
export function namePng(
  png: Uint8Array,
  text: { title: string; description?: string },
): Uint8Array<ArrayBuffer> {
  const chunks = pngChunks(png);
  return beforeIend(png, chunks, [
    iTxtChunk('Title', text.title),
    ...(text.description ? [iTxtChunk('Description', text.description)] : []),
  ]);
}

/** The text of the first uncompressed `iTXt` chunk with this keyword, or null. */
export function pngText(png: Uint8Array, keyword: string): string | null {
  for (const chunk of pngChunks(png)) {
    if (chunk.type !== 'iTXt') continue;
    const fields = parseITxt(chunk.data);
    if (fields?.keyword === keyword) return fields.compressed ? null : fields.text;
  }
  return null;
}

/** The text of the first `iTXt` chunk `openbadgecredential` (uncompressed), or null. */
export function extractFromPng(png: Uint8Array): string | null {
  return pngText(png, PNG_KEYWORD);
}

// ---------------------------------------------------------------------------------------------
// The badge artwork

export type BadgeFace = {
  title: string;
  organisation: string;
  certificateNo: string;
  issuedAt: Date;
};

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Shortens to at most `max` characters, on a word boundary where one is near. */
function clip(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** The frame every badge shares: the disc, its ring and the check mark. */
const BADGE_FRAME = `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1c4d8c"/><stop offset="1" stop-color="#0b2f5c"/></linearGradient></defs>
<circle cx="200" cy="200" r="192" fill="url(#g)"/>
<circle cx="200" cy="200" r="176" fill="none" stroke="#f2c14e" stroke-width="6"/>
<path d="M160 112l28 28 56-56" fill="none" stroke="#f2c14e" stroke-width="14" stroke-linecap="round" stroke-linejoin="round" transform="translate(0 10)"/>`;

const BADGE_FONTS = "'Noto Sans','Segoe UI',Helvetica,Arial,sans-serif";

/**
 * The SVG badge (400 × 400, before baking): the achievement's title, the organisation, the month
 * of issue and the number. No personal data: like the credential, the badge does not name the
 * holder (the verification page does, with their consent).
 */
export function badgeSvg(face: BadgeFace): string {
  const title = clip(face.title, 34);
  const organisation = clip(face.organisation, 40);
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" role="img" aria-label="${xmlAttribute(`Verified work badge: ${face.title}, ${face.organisation}, ${face.certificateNo}`)}">
<title>${xmlText(`${face.title} · ${face.certificateNo}`)}</title>
${BADGE_FRAME}
<g font-family="${BADGE_FONTS}" text-anchor="middle" fill="#ffffff">
<text x="200" y="190" font-size="15" letter-spacing="3" fill="#f2c14e">VERIFIED WORK</text>
<text x="200" y="226" font-size="21" font-weight="700">${xmlText(title)}</text>
<text x="200" y="256" font-size="15">${xmlText(organisation)}</text>
<text x="200" y="290" font-size="13" fill="#cfdcef">${xmlText(MONTH.format(face.issuedAt))}</text>
<text x="200" y="318" font-size="13" font-family="ui-monospace,Menlo,Consolas,monospace" fill="#cfdcef">${xmlText(face.certificateNo)}</text>
</g>
</svg>
`;
}

/**
 * Splits a title into at most `lines` lines of at most `max` characters, breaking between words
 * (a word longer than a line is cut); what does not fit ends the last line with "…".
 */
export function wrapTitle(text: string, max: number, lines: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const joined = line ? `${line} ${word}` : word;
    if ([...joined].length <= max) line = joined;
    else {
      if (line) out.push(line);
      line = word;
    }
  }
  if (line) out.push(line);
  if (out.length <= lines) return out.map((l) => clip(l, max));
  return [...out.slice(0, lines - 1).map((l) => clip(l, max)), clip(out.slice(lines - 1).join(' '), max)];
}

/** One centred line of a badge's text: its baseline, size, weight, colour and letter spacing. */
export type BadgeLine = {
  text: string;
  y: number;
  size: number;
  bold: boolean;
  fill: string;
  letterSpacing: number;
};

/**
 * The text of an achievement's badge (400 × 400): "VERIFIED WORK", the achievement's name in up to
 * two lines, and the organisation that sets it. No number, date or holder: it stands for the
 * achievement, not for one credential. The lines are drawn by the caller (as outlines, for a PNG).
 */
export function achievementBadgeLines(face: { title: string; organisation: string }): BadgeLine[] {
  const title = wrapTitle(face.title, 28, 2);
  const first = title.length === 1 ? 238 : 226;
  const line = (text: string, y: number, size: number, bold: boolean, fill: string, letterSpacing = 0) => ({
    text,
    y,
    size,
    bold,
    fill,
    letterSpacing,
  });
  return [
    line('VERIFIED WORK', 190, 15, false, '#f2c14e', 3),
    ...title.map((text, i) => line(text, first + i * 27, 21, true, '#ffffff')),
    line(clip(face.organisation, 40), first + title.length * 27 + 14, 15, false, '#cfdcef'),
  ];
}

/** A badge's SVG document: the shared frame and `content` (already drawn text) over it. */
export function badgeDocument(label: string, content: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400" role="img" aria-label="${xmlAttribute(label)}">
<title>${xmlText(label)}</title>
${BADGE_FRAME}
${content}
</svg>
`;
}
