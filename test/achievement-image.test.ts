/**
 * An achievement's `image` (`/ob/achievements/{briefId}/image.png`): a PNG of the achievement's
 * badge with no credential baked in, naming the achievement in its pixels (not only in its text
 * chunks). The PNG is decoded here with fflate (zlib) and the PNG row filters, as any viewer would.
 */
import { env } from 'cloudflare:test';
import { unzlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { extractFromPng, pngChunks, pngText } from '../src/domain/certificates/badge';
import { publishedBrief, signup, verifyOrganisation } from './harness';
import { call } from './helpers';

type Bitmap = { width: number; height: number; rgba: Uint8Array };

/** Decodes an 8-bit RGBA, non-interlaced PNG (what resvg writes). */
function decodePng(png: Uint8Array): Bitmap {
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
function whitePixels(bitmap: Bitmap, top: number, bottom: number): number {
  let count = 0;
  for (let y = top; y < bottom; y++)
    for (let x = 0; x < bitmap.width; x++) {
      const i = (y * bitmap.width + x) * 4;
      const [r, g, b, a] = [bitmap.rgba[i]!, bitmap.rgba[i + 1]!, bitmap.rgba[i + 2]!, bitmap.rgba[i + 3]!];
      if (a > 200 && r > 200 && g > 200 && b > 200) count++;
    }
  return count;
}

function differingPixels(a: Bitmap, b: Bitmap, top: number, bottom: number): number {
  let count = 0;
  for (let i = top * a.width * 4; i < bottom * a.width * 4; i += 4)
    if (a.rgba.subarray(i, i + 4).some((v, k) => Math.abs(v - b.rgba[i + k]!) > 32)) count++;
  return count;
}

async function imageOf(briefId: string) {
  const res = await call(`/ob/achievements/${briefId}/image.png`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/png');
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  return new Uint8Array(await res.arrayBuffer());
}

describe('the achievement image names the achievement in its pixels', { timeout: 60_000 }, () => {
  it('a 400 × 400 PNG, no credential baked in, whose title region changes with the name', async () => {
    const employer = await signup('employer', 'Recruiter', `Pixel Works ${crypto.randomUUID().slice(0, 6)}`);
    await verifyOrganisation(employer);
    const short = await publishedBrief(employer, { title: 'Design a bird feeder API', durationDays: 1 });
    const long = await publishedBrief(employer, {
      title: 'Migrate a monolithic billing service to event-driven microservices',
      durationDays: 1,
    });
    const [a, b] = [await imageOf(short.id), await imageOf(long.id)];
    expect(extractFromPng(a)).toBeNull();
    expect(pngText(a, 'Title')).toBe('Design a bird feeder API');
    const [pa, pb] = [decodePng(a), decodePng(b)];
    expect([pa.width, pa.height]).toEqual([400, 400]);
    // The title is drawn between y ≈ 205 and 265: white text there, and different for another name.
    expect(whitePixels(pa, 205, 265)).toBeGreaterThan(400);
    expect(whitePixels(pb, 205, 265)).toBeGreaterThan(400);
    expect(differingPixels(pa, pb, 205, 265)).toBeGreaterThan(300);
    // The frame above ("VERIFIED WORK" and the check mark) is the same picture.
    expect(differingPixels(pa, pb, 0, 195)).toBe(0);
    // A corner outside the disc is transparent.
    expect(pa.rgba[3]).toBe(0);
  });

  it('draws Devanagari and Tamil names, and serves the same image again from the cache', async () => {
    const employer = await signup('employer', 'Recruiter', `Lipi ${crypto.randomUUID().slice(0, 6)}`);
    await verifyOrganisation(employer);
    const hindi = await publishedBrief(employer, { title: 'डेटा विश्लेषण रिपोर्ट', durationDays: 1 });
    const tamil = await publishedBrief(employer, { title: 'தரவு பகுப்பாய்வு', durationDays: 1 });
    const [h, t] = [decodePng(await imageOf(hindi.id)), decodePng(await imageOf(tamil.id))];
    expect(whitePixels(h, 205, 265)).toBeGreaterThan(300);
    expect(whitePixels(t, 205, 265)).toBeGreaterThan(300);
    expect(differingPixels(h, t, 205, 265)).toBeGreaterThan(300);

    const before = (await env.CACHE.list({ prefix: 'achievement-image:v2:' })).keys.length;
    const again = await imageOf(hindi.id);
    expect((await env.CACHE.list({ prefix: 'achievement-image:v2:' })).keys.length).toBe(before);
    expect(decodePng(again).rgba).toEqual(h.rgba);
  });
});
