/**
 * The verification page's share link as a QR code, rendered server-side as an inline SVG path,
 * so the page needs no script, image request or client library for it. Pure: no bindings.
 *
 * The symbol comes from `uqr` (a port of Project Nayuki's reference encoder, ISO/IEC 18004
 * Model 2): byte mode, error-correction level M, the smallest of versions 1–40 that holds the
 * text, and the mask with the lowest penalty score. Only the SVG path is drawn here.
 */

import { encode } from 'uqr';

/** Bytes that fit at level M in version 40, byte mode. */
const MAX_BYTES_M = 2331;

export type QrCode = {
  version: number;
  size: number;
  mask: number;
  /** `modules[y][x]`: true for a dark module. */
  modules: boolean[][];
};

/**
 * Encodes text (UTF-8, byte mode) at error-correction level M in the smallest version that holds
 * it. Returns null when it does not fit in version 40 (2,331 bytes). `known`: the mask this very
 * text was given before (its `mask`), so the search for the best of the eight (most of the
 * encoding's time on a cold isolate) is skipped (decision 0327), or the whole code as
 * `packModules` packed it for this very text (decision 0328); the symbol is the same.
 */
export function encodeQr(text: string, known?: number | PackedQr): QrCode | null {
  if (last?.text === text) return last.code;
  const code =
    typeof known === 'object'
      ? (unpackModules(known) ?? encodeAfresh(text, known.mask))
      : encodeAfresh(text, known);
  last = { text, code };
  return code;
}

/**
 * A code as KV's metadata can carry it (decision 0328): its size, mask and dark modules, packed
 * row by row, eight to a byte, most significant bit first, in base64. A version 4 code (a share
 * link on a short origin) is 184 characters. Given back to `encodeQr` for the text it was made
 * for, the code is the same without the encoding (≈ 2.5 ms on a cold isolate's first request).
 */
export type PackedQr = { size: number; mask: number; modules: string };

/** `code` packed (`PackedQr`). */
export function packModules(code: QrCode): PackedQr {
  const bytes = new Uint8Array(Math.ceil((code.size * code.size) / 8));
  code.modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      const i = y * code.size + x;
      if (dark) bytes[i >> 3] = (bytes[i >> 3] ?? 0) | (0x80 >> (i & 7));
    });
  });
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { size: code.size, mask: code.mask, modules: btoa(binary) };
}

/** The code `packModules` packed, or undefined when `packed` is not one (then it is encoded). */
function unpackModules(packed: PackedQr): QrCode | undefined {
  const { size, mask, modules } = packed;
  if (!Number.isInteger(size) || size < 21 || size > 177 || (size - 17) % 4 !== 0) return undefined;
  if (!Number.isInteger(mask) || mask < 0 || mask > 7 || typeof modules !== 'string') return undefined;
  let binary: string;
  try {
    binary = atob(modules);
  } catch {
    return undefined;
  }
  if (binary.length !== Math.ceil((size * size) / 8)) return undefined;
  const rows: boolean[][] = [];
  for (let y = 0; y < size; y++) {
    const row: boolean[] = new Array(size);
    for (let x = 0; x < size; x++) {
      const i = y * size + x;
      row[x] = (binary.charCodeAt(i >> 3) & (0x80 >> (i & 7))) !== 0;
    }
    rows.push(row);
  }
  return { version: (size - 17) / 4, size, mask, modules: rows };
}

/**
 * The last text encoded and its code: the cold page encodes its share link with the mask KV's
 * metadata gives (`warmShareQr` in src/routes/pages/pages.cold.ts, decision 0327) before the
 * render, which then finds it here; a cache miss that wrote the mask is followed by its page.
 * The code is shared: callers do not change it.
 */
let last: { text: string; code: QrCode | null } | undefined;

function encodeAfresh(text: string, knownMask?: number): QrCode | null {
  const bytes = Array.from(new TextEncoder().encode(text));
  if (bytes.length > MAX_BYTES_M) return null;
  // Bytes rather than the string: given a string, uqr picks numeric or alphanumeric mode when the
  // text allows it; the page has always used byte mode, and a URL needs it anyway.
  const mask = knownMask !== undefined && Number.isInteger(knownMask) && knownMask >= 0 && knownMask < 8;
  const code = encode(bytes, {
    ecc: 'M',
    boostEcc: false,
    border: 0,
    ...(mask ? { maskPattern: knownMask } : {}),
  });
  return { version: code.version, size: code.size, mask: code.maskPattern, modules: code.data };
}

/**
 * The code as an SVG path (`d`) in module units, with a four-module quiet zone: one
 * `M x y h n v1 h -n z` rectangle per horizontal run of dark modules. The full side is `size + 8`.
 */
export function qrSvgPath(code: QrCode): string {
  if (lastPath?.code === code) return lastPath.path;
  const path = svgPathAfresh(code);
  lastPath = { code, path };
  return path;
}

/** The last code drawn and its path (as `last` above: the cold page draws its QR code early). */
let lastPath: { code: QrCode; path: string } | undefined;

function svgPathAfresh(code: QrCode): string {
  const parts: string[] = [];
  code.modules.forEach((row, y) => {
    for (let x = 0; x < code.size; x++) {
      if (!row[x]) continue;
      let end = x;
      while (end + 1 < code.size && row[end + 1]) end++;
      parts.push(`M${x + 4} ${y + 4}h${end - x + 1}v1h-${end - x + 1}z`);
      x = end;
    }
  });
  return parts.join('');
}
