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
// The badge artwork: one design for the certificate's SVG and PNG and the achievement's image

export type BadgeFace = {
  title: string;
  organisation: string;
  certificateNo: string;
  issuedAt: Date;
};

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** The frame every badge shares: the disc, its ring and the check mark. */
const BADGE_FRAME = `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1c4d8c"/><stop offset="1" stop-color="#0b2f5c"/></linearGradient></defs>
<circle cx="200" cy="200" r="192" fill="url(#g)"/>
<circle cx="200" cy="200" r="176" fill="none" stroke="#f2c14e" stroke-width="6"/>
<path d="M160 112l28 28 56-56" fill="none" stroke="#f2c14e" stroke-width="14" stroke-linecap="round" stroke-linejoin="round" transform="translate(0 10)"/>`;

const BADGE_FONTS =
  "'Noto Sans','Noto Sans Devanagari','Noto Sans Tamil','Segoe UI',Helvetica,Arial,sans-serif";

/**
 * The radius text stays within: the ring's inner edge is at 173, so every line keeps 11 units of
 * blue between its corners and the ring.
 */
export const TEXT_RADIUS = 162;

/** Where the last line's descenders may reach at most (below it the disc is too narrow to read). */
const TEXT_BOTTOM = 346;

/** One centred line of a badge's text: its baseline, size, weight, colour and letter spacing. */
export type BadgeLine = {
  text: string;
  y: number;
  size: number;
  bold: boolean;
  fill: string;
  letterSpacing: number;
  /** The widest it may be drawn (the disc's chord at its height, less a margin). */
  maxWidth: number;
};

// Advance widths (thousandths of an em) of Noto Sans Regular, rounded up, for what badges show;
// bold is about 6 % wider. Anything not listed takes its script's widest common letter, so the
// estimate errs wide: a line measured to fit does fit, in the PNG's HarfBuzz-shaped outlines and
// in an SVG viewer's sans-serif alike.
const NARROW = new Set([..."il.,:;!|'`"]);
const SEMI = new Set([...'fjrtI()[]{}"-/\\ ']);
const WIDE = new Set([...'mwMW@%&']);

function advance(ch: string): number {
  if (/\p{M}/u.test(ch) || ch === '\u200c' || ch === '\u200d') return 0; // marks join the letter before
  if (NARROW.has(ch)) return 280;
  if (SEMI.has(ch)) return 360;
  if (WIDE.has(ch)) return 940;
  if (/[a-z0-9]/.test(ch)) return 600;
  if (/[A-Z]/.test(ch)) return 700;
  if (/[\u0900-\u097f]/.test(ch)) return 700; // Devanagari
  if (/[\u0b80-\u0bff]/.test(ch)) return 900; // Tamil: wide letters
  if (/[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/.test(ch)) return 1000;
  return 720;
}

/** The estimated width of `text` at `size` (see the table above: never narrower than drawn). */
export function estimateWidth(text: string, size: number, bold = false, letterSpacing = 0): number {
  const chars = [...text];
  const em = chars.reduce((sum, ch) => sum + advance(ch), 0);
  return (em / 1000) * size * (bold ? 1.06 : 1) + Math.max(0, chars.length - 1) * letterSpacing;
}

/** The width a line may take at baseline `y`: the chord of the text circle across its glyphs' box. */
export function chordWidth(y: number, size: number): number {
  const top = y - 0.95 * size; // Devanagari vowel signs rise above the cap height
  const bottom = y + 0.3 * size;
  const reach = Math.max(Math.abs(top - 200), Math.abs(bottom - 200));
  if (reach >= TEXT_RADIUS) return 0;
  return 2 * Math.sqrt(TEXT_RADIUS ** 2 - reach ** 2) - 8;
}

type Measure = (text: string) => number;

/**
 * Breaks `text` into lines between words, the n-th line at most `widths(n)` wide (a word too long
 * for any line is cut between characters), at most `max` lines; what does not fit ends the last
 * line with "…". `complete` says whether all of it fitted.
 */
export function fitLines(
  text: string,
  measure: Measure,
  widths: (line: number) => number,
  max: number,
): { lines: string[]; complete: boolean } {
  const lines: string[] = [];
  let line = '';
  const words = text.trim().split(/\s+/).filter(Boolean);
  const pending = [...words];
  while (pending.length > 0) {
    const word = pending.shift()!;
    const joined = line ? `${line} ${word}` : word;
    if (measure(joined) <= widths(lines.length)) {
      line = joined;
      continue;
    }
    if (line) {
      lines.push(line);
      line = '';
      pending.unshift(word);
    } else {
      // A single word wider than the line: as many characters as fit, the rest on the next line.
      const chars = [...word];
      let n = chars.length - 1;
      while (n > 1 && measure(chars.slice(0, n).join('')) > widths(lines.length)) n--;
      lines.push(chars.slice(0, n).join(''));
      pending.unshift(chars.slice(n).join(''));
    }
    if (lines.length === max) break;
  }
  let leftover = false;
  if (line) {
    if (lines.length < max) lines.push(line);
    else leftover = true;
  }
  if (pending.length === 0 && !leftover) return { lines, complete: true };
  // Ends the last line with an ellipsis, taking words (or characters) off until it fits.
  let last = `${lines[max - 1] ?? ''}…`;
  while ([...last].length > 1 && measure(last) > widths(max - 1)) {
    const body = [...last.slice(0, -1)];
    const cut = body.join('').lastIndexOf(' ');
    last = `${cut > body.length * 0.5 ? body.join('').slice(0, cut) : body.slice(0, -1).join('')}…`;
  }
  lines[max - 1] = last;
  return { lines, complete: false };
}

/** Kept for callers that wrap by characters (at most `lines` lines of at most `max` characters). */
export function wrapTitle(text: string, max: number, lines: number): string[] {
  return fitLines(
    text,
    (t) => [...t].length,
    () => max,
    lines,
  ).lines;
}

const KICKER = 'VERIFIED WORK';
const GOLD = '#f2c14e';
const WHITE = '#ffffff';
const PALE = '#cfdcef';

/**
 * The lines of the one badge design (400 × 400): "VERIFIED WORK"; the achievement's name, as large
 * as it fits (22 down to 13 units, up to three lines, the chord of the disc at each line's height
 * bounding it, so no line runs into the ring); "by" the organisation (up to two lines); and for a
 * certificate the month of issue and its number. The name is clipped with "…" only when even the
 * smallest size cannot hold it (a 200-character title); the full name is in the image's title.
 * No holder: the badge stands for the achievement and the credential, not the person.
 */
export function badgeLines(face: {
  title: string;
  organisation: string;
  certificate?: { certificateNo: string; issuedAt: Date };
}): BadgeLine[] {
  const foot = face.certificate;
  let fallback: BadgeLine[] | null = null;
  for (let titleSize = 22; titleSize >= 13; titleSize--) {
    const orgSize = Math.min(15, Math.max(12, titleSize - 5));
    const out: BadgeLine[] = [
      {
        text: KICKER,
        y: 178,
        size: 13,
        bold: false,
        fill: GOLD,
        letterSpacing: 3,
        maxWidth: chordWidth(178, 13),
      },
    ];
    let y = 186; // the top of the name's first line
    const block = (text: string, size: number, bold: boolean, fill: string, maxLines: number): boolean => {
      const lead = Math.round(size * 1.22);
      const baseline = (n: number) => y + size + n * lead;
      const fitted = fitLines(
        text,
        (t) => estimateWidth(t, size, bold),
        (n) => chordWidth(baseline(n), size),
        maxLines,
      );
      fitted.lines.forEach((line, n) => {
        out.push({
          text: line,
          y: baseline(n),
          size,
          bold,
          fill,
          letterSpacing: 0,
          maxWidth: chordWidth(baseline(n), size),
        });
      });
      y = baseline(fitted.lines.length - 1) + 0.3 * size;
      return fitted.complete;
    };
    const titleFits = block(face.title, titleSize, true, WHITE, 3);
    y += 8;
    const orgFits = block(`by ${face.organisation}`, orgSize, false, PALE, 2);
    if (foot) {
      y += 8;
      block(MONTH.format(foot.issuedAt), 12, false, PALE, 1);
      y += 1;
      block(foot.certificateNo, 12, false, PALE, 1);
    }
    const inside =
      y <= TEXT_BOTTOM &&
      out.every((l) => estimateWidth(l.text, l.size, l.bold, l.letterSpacing) <= l.maxWidth);
    if (inside && titleFits && orgFits) return centred(out, TEXT_BOTTOM - y);
    if (inside) fallback = out;
  }
  // Nothing holds the whole name: the smallest layout that stays inside the disc, clipped with "…".
  if (fallback) return fallback;
  throw new Error('badge layout: nothing fits the disc');
}

/**
 * Moves a layout down by half the room left below it (at most 24 units), so a short text sits in
 * the middle of the disc rather than under the check mark, when every line still fits its chord
 * there.
 */
function centred(lines: BadgeLine[], room: number): BadgeLine[] {
  for (let shift = Math.min(24, Math.floor(room / 2)); shift > 0; shift -= 4) {
    const moved = lines.map((l) => ({ ...l, y: l.y + shift, maxWidth: chordWidth(l.y + shift, l.size) }));
    if (moved.every((l) => estimateWidth(l.text, l.size, l.bold, l.letterSpacing) <= l.maxWidth))
      return moved;
  }
  return lines;
}

/** The certificate badge's lines. */
export const certificateBadgeLines = (face: BadgeFace) =>
  badgeLines({
    title: face.title,
    organisation: face.organisation,
    certificate: { certificateNo: face.certificateNo, issuedAt: face.issuedAt },
  });

/** The achievement's badge's lines: the same design without a number or a date. */
export const achievementBadgeLines = (face: { title: string; organisation: string }) => badgeLines(face);

/** What a badge image says, for its `<title>` and `aria-label` (the whole names, never clipped). */
export const badgeLabel = (face: { title: string; organisation: string; certificateNo?: string }) =>
  `Verified work badge: ${face.title}, by ${face.organisation}${face.certificateNo ? `, ${face.certificateNo}` : ''}`;

/** The lines as SVG `<text>` (for an SVG viewer, which has fonts; the PNG draws them as outlines). */
export function textElements(lines: BadgeLine[]): string {
  return lines
    .map(
      (l) =>
        `<text x="200" y="${round(l.y)}" font-size="${l.size}"${l.bold ? ' font-weight="700"' : ''}${l.letterSpacing ? ` letter-spacing="${l.letterSpacing}"` : ''} fill="${l.fill}">${xmlText(l.text)}</text>`,
    )
    .join('\n');
}

const round = (n: number) => Math.round(n * 100) / 100;

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

/** The certificate's SVG badge (before baking): the one design, its text as `<text>`. */
export function badgeSvg(face: BadgeFace): string {
  return badgeDocument(
    badgeLabel(face),
    `<g font-family="${BADGE_FONTS}" text-anchor="middle">\n${textElements(certificateBadgeLines(face))}\n</g>`,
  );
}
