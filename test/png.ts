/**
 * PNG decoding for tests: 8-bit RGBA, non-interlaced (what resvg writes), with fflate (zlib) and
 * the PNG row filters, as any viewer would; and pixel counts over the decoded picture.
 */
import { unzlibSync } from 'fflate';
import { expect } from 'vitest';
import { pngChunks } from '../src/domain/certificates/badge';

export type Bitmap = { width: number; height: number; rgba: Uint8Array };

/** Decodes an 8-bit RGBA, non-interlaced PNG (what resvg writes). */
export function decodePng(png: Uint8Array): Bitmap {
  const chunks = pngChunks(png);
  const header = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset, 13);
  const width = header.getUint32(0);
  const height = header.getUint32(4);
  expect([header.getUint8(8), header.getUint8(9), header.getUint8(12)]).toEqual([8, 6, 0]);
  const idat = chunks.filter((c) => c.type === 'IDAT').map((c) => c.data);
  const joined = new Uint8Array(idat.reduce((n, d) => n + d.length, 0));
  let at = 0;
  for (const d of idat) {
    joined.set(d, at);
    at += d.length;
  }
  const raw = unzlibSync(joined);
  const stride = width * 4;
  const rgba = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    if (filter > 4) throw new Error(`row ${y}: unknown PNG filter ${filter}`);
    for (let x = 0; x < stride; x++) {
      const a = x >= 4 ? rgba[y * stride + x - 4]! : 0;
      const b = y > 0 ? rgba[(y - 1) * stride + x]! : 0;
      const c = x >= 4 && y > 0 ? rgba[(y - 1) * stride + x - 4]! : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter]!;
      rgba[y * stride + x] = (line[x]! + predictor) & 0xff;
    }
  }
  return { width, height, rgba };
}

/** Pixels in rows [top, bottom) that are near white: the badge's white text on its blue disc. */
export function whitePixels(bitmap: Bitmap, top: number, bottom: number): number {
  let count = 0;
  for (let y = top; y < bottom; y++)
    for (let x = 0; x < bitmap.width; x++) {
      const i = (y * bitmap.width + x) * 4;
      const [r, g, b, a] = [bitmap.rgba[i]!, bitmap.rgba[i + 1]!, bitmap.rgba[i + 2]!, bitmap.rgba[i + 3]!];
      if (a > 200 && r > 200 && g > 200 && b > 200) count++;
    }
  return count;
}

export function differingPixels(a: Bitmap, b: Bitmap, top: number, bottom: number): number {
  let count = 0;
  for (let i = top * a.width * 4; i < bottom * a.width * 4; i += 4)
    if (a.rgba.subarray(i, i + 4).some((v, k) => Math.abs(v - b.rgba[i + k]!) > 32)) count++;
  return count;
}

/**
 * Pixels of the badge's light text colours (white, pale blue) in the ring [inner, outer) around the
 * centre (200, 200): text that ran into the ring. The ring is gold and the disc dark blue, so
 * neither counts.
 */
export function textPixelsInRing(bitmap: Bitmap, inner: number, outer: number): number {
  let count = 0;
  for (let y = 0; y < bitmap.height; y++)
    for (let x = 0; x < bitmap.width; x++) {
      const r = Math.hypot(x + 0.5 - 200, y + 0.5 - 200);
      if (r < inner || r >= outer) continue;
      const i = (y * bitmap.width + x) * 4;
      if (bitmap.rgba[i + 1]! > 170 && bitmap.rgba[i + 2]! > 170) count++;
    }
  return count;
}
