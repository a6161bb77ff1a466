/**
 * One badge design (issue 52): the certificate's SVG names the achievement and the issuer in its
 * text; its PNG is that design rasterised (the names in the pixels) with the same credential baked
 * in as before; a title as long as the API allows stays clear of the ring, in the certificate's
 * PNG and in the achievement's image alike.
 */
import { describe, expect, it } from 'vitest';
import { extractFromPng, extractFromSvg } from '../src/domain/certificates/badge';
import { briefCredentialFacts } from '../src/services/credentials';
import { candidateWithCertificate, db, publishedBrief, signup, verifyOrganisation } from './harness';
import { as, call } from './helpers';
import { pdfText } from './pdf-text';
import { decodePng, textPixelsInRing, whitePixels } from './png';

/** 200 characters: the longest brief title the API accepts. */
const LONGEST_TITLE = (
  'Design, build, test and deploy an accessible, internationalised, offline-first progressive web ' +
  'application for booking community health clinic appointments across rural districts, with reports ' +
  'and more'
).slice(0, 200);

async function badges(certificateNo: string) {
  const verified = await (await call(`/api/verify/${certificateNo}`)).json<{ credential: { jwt: string } }>();
  const png = await call(`/api/certificates/${certificateNo}/badge.png`);
  expect(png.status).toBe(200);
  expect(png.headers.get('content-type')).toBe('image/png');
  const svg = await call(`/api/certificates/${certificateNo}/badge.svg`);
  expect(svg.status).toBe(200);
  return {
    jwt: verified.credential.jwt,
    png: new Uint8Array(await png.arrayBuffer()),
    svg: await svg.text(),
  };
}

describe('the certificate badge', { timeout: 120_000 }, () => {
  it('SVG and PNG: one design naming the achievement and the issuer, the credential baked as before', async () => {
    const { certificateNo } = await candidateWithCertificate('Badge Holder', {
      title: 'Bird feeder API',
      employerName: 'Acme Badges',
    });
    const { jwt, png, svg } = await badges(certificateNo);
    const texts = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(texts).toContain('Bird feeder API');
    expect(texts.some((t) => t?.startsWith('by ') && t.length > 3)).toBe(true);
    expect(texts).toContain(certificateNo);
    expect(extractFromSvg(svg)).toBe(jwt);
    expect(extractFromPng(png)).toBe(jwt);
    const bitmap = decodePng(png);
    expect([bitmap.width, bitmap.height]).toEqual([400, 400]);
    // The name is in the pixels: white text below "VERIFIED WORK".
    expect(whitePixels(bitmap, 190, 240)).toBeGreaterThan(300);
    expect(textPixelsInRing(bitmap, 166, 190)).toBe(0);
    expect(bitmap.rgba[3]).toBe(0);
  });

  it('fits the longest title the API allows inside the ring, in the PNG', async () => {
    const { certificateNo } = await candidateWithCertificate('Long Badge', { title: LONGEST_TITLE });
    const { jwt, png, svg } = await badges(certificateNo);
    expect(extractFromPng(png)).toBe(jwt);
    expect(svg).toContain(`<title>Verified work badge: ${LONGEST_TITLE}`);
    const bitmap = decodePng(png);
    expect(whitePixels(bitmap, 190, 260)).toBeGreaterThan(600);
    expect(textPixelsInRing(bitmap, 166, 190)).toBe(0);
    // The same badge again comes from the cache, byte for byte.
    expect((await badges(certificateNo)).png).toEqual(png);
  });
});

describe('the achievement image', { timeout: 60_000 }, () => {
  it('is the same design, the longest title inside the ring', async () => {
    const employer = await signup('employer', 'Recruiter', `Ring ${crypto.randomUUID().slice(0, 6)}`);
    await verifyOrganisation(employer);
    const brief = await publishedBrief(employer, { title: LONGEST_TITLE, durationDays: 1 });
    const res = await call(`/ob/achievements/${brief.id}/image.png`);
    expect(res.status).toBe(200);
    const bitmap = decodePng(new Uint8Array(await res.arrayBuffer()));
    expect(whitePixels(bitmap, 190, 260)).toBeGreaterThan(600);
    expect(textPixelsInRing(bitmap, 166, 190)).toBe(0);
  });
});

describe('the certificate PDF', { timeout: 60_000 }, () => {
  it('names the achievement, the verified organisation and the criteria assessed', async () => {
    const { candidate, certificateNo, brief } = await candidateWithCertificate('Pdf Holder', {
      title: 'Build a status page',
      employerName: 'Acme Criteria',
    });
    const res = await call(`/api/me/certificates/${certificateNo}/pdf`, { headers: as(candidate) });
    expect(res.status).toBe(200);
    const text = (await pdfText(new Uint8Array(await res.arrayBuffer()))).replace(/\s+/g, ' ');
    expect(text).toContain('Build a status page');
    expect(text).toMatch(/Acme Criteria[^.]* is an organisation verified by Verification Platform/);
    expect(text).toContain('Criteria:');
    const { rubric } = await briefCredentialFacts(db(), brief.id);
    expect(rubric.length).toBeGreaterThan(0);
    for (const criterion of rubric) expect(text).toContain(criterion.name);
  });
});
