import { describe, expect, it } from 'vitest';
import { declaredByMediaType, readPresented } from '../open-badges/presented';
import { bakedBadgeDataUrl } from './badge-image';

describe('bakedBadgeDataUrl', () => {
  it('the exact bytes, typed by what the reader found; nothing for text or an unread image', () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 10]);
    expect(bakedBadgeDataUrl(bytes, 'png')).toBe('data:image/png;base64,iVBORwD/Cg==');
    expect(bakedBadgeDataUrl(new TextEncoder().encode('<svg/>'), 'svg')).toBe(
      `data:image/svg+xml;base64,${btoa('<svg/>')}`,
    );
    expect(bakedBadgeDataUrl(bytes, 'text')).toBeNull();
    expect(bakedBadgeDataUrl(bytes, null)).toBeNull();
  });

  it('a megabyte is encoded in slices (no stack overflow) and decodes to the same bytes', () => {
    const big = new Uint8Array(1024 * 1024).map((_, i) => (i * 31) & 255);
    const url = bakedBadgeDataUrl(big, 'png') ?? '';
    const back = Uint8Array.from(atob(url.slice('data:image/png;base64,'.length)), (c) => c.charCodeAt(0));
    expect(back).toEqual(big);
  });
});

describe('declaredByMediaType (a credential fetched by URL)', () => {
  it('images are what they say, credential and text types are sniffed, a web page or another image is refused', () => {
    expect(declaredByMediaType('image/png')).toEqual({ image: 'png' });
    expect(declaredByMediaType('image/svg+xml')).toEqual({ image: 'svg' });
    for (const type of [
      '',
      'application/json',
      'application/ld+json',
      'application/vc+ld+json',
      'application/vc+jwt',
      'application/jwt',
      'application/vc',
      'application/octet-stream',
      'text/plain',
      'text/xml',
    ])
      expect(declaredByMediaType(type), type).toEqual({});
    expect(declaredByMediaType('text/html')).toMatchObject({ error: expect.stringMatching(/web page/) });
    expect(declaredByMediaType('image/gif')).toMatchObject({
      error: expect.stringMatching(/only a PNG or an SVG/),
    });
    expect(declaredByMediaType('video/mp4')).toMatchObject({ error: expect.stringMatching(/video\/mp4/) });
  });

  it('readPresented reads fetched bytes as their media type says', () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln';
    const bytes = new TextEncoder().encode(jwt);
    expect(readPresented(bytes, { fetchedAs: 'application/vc+jwt' })).toMatchObject({ form: 'jwt', jwt });
    expect(readPresented(bytes, { fetchedAs: 'text/html' })).toMatchObject({
      error: expect.stringMatching(/web page/),
    });
    expect(readPresented(bytes, { fetchedAs: 'image/png' })).toEqual({
      error: 'The answer is declared image/png but is not a PNG.',
    });
    expect(readPresented(new Uint8Array(0), { fetchedAs: '' })).toEqual({
      error: 'The URL answered an empty body.',
    });
  });
});
