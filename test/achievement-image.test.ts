/**
 * An achievement's `image` (`/ob/achievements/{briefId}/image.png`): a PNG of the achievement's
 * badge with no credential baked in, naming the achievement in its pixels (not only in its text
 * chunks). The PNG is decoded here with fflate (zlib) and the PNG row filters, as any viewer would.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { extractFromPng, pngText } from '../src/domain/certificates/badge';
import { publishedBrief, signup, verifyOrganisation } from './harness';
import { call } from './helpers';
import { decodePng, differingPixels, whitePixels } from './png';

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
    // The title is drawn from y ≈ 186 (more when it is short) down: white text there, and different for another name.
    expect(whitePixels(pa, 186, 265)).toBeGreaterThan(400);
    expect(whitePixels(pb, 186, 265)).toBeGreaterThan(400);
    expect(differingPixels(pa, pb, 186, 265)).toBeGreaterThan(300);
    // The check mark above is the same picture.
    expect(differingPixels(pa, pb, 0, 160)).toBe(0);
    // A corner outside the disc is transparent.
    expect(pa.rgba[3]).toBe(0);
  });

  it('draws Devanagari and Tamil names, and serves the same image again from the cache', async () => {
    const employer = await signup('employer', 'Recruiter', `Lipi ${crypto.randomUUID().slice(0, 6)}`);
    await verifyOrganisation(employer);
    const hindi = await publishedBrief(employer, { title: 'डेटा विश्लेषण रिपोर्ट', durationDays: 1 });
    const tamil = await publishedBrief(employer, { title: 'தரவு பகுப்பாய்வு', durationDays: 1 });
    const [h, t] = [decodePng(await imageOf(hindi.id)), decodePng(await imageOf(tamil.id))];
    expect(whitePixels(h, 186, 265)).toBeGreaterThan(300);
    expect(whitePixels(t, 186, 265)).toBeGreaterThan(300);
    expect(differingPixels(h, t, 186, 265)).toBeGreaterThan(300);

    const before = (await env.CACHE.list({ prefix: 'achievement-image:v2:' })).keys.length;
    const again = await imageOf(hindi.id);
    expect((await env.CACHE.list({ prefix: 'achievement-image:v2:' })).keys.length).toBe(before);
    expect(decodePng(again).rgba).toEqual(h.rgba);
  });
});
