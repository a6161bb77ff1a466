import { describe, expect, it } from 'vitest';
import {
  achievementBadgeLines,
  BadgeError,
  badgeSvg,
  bakePng,
  bakeSvg,
  crc32,
  extractFromPng,
  extractFromSvg,
  OB3_NAMESPACE,
  pngChunks,
  wrapTitle,
} from './badge';

const JWT = 'eyJhbGciOiJFZERTQSJ9.eyJpc3MiOiJodHRwczovL2V4YW1wbGUuY29tIn0.c2lnbmF0dXJl';

/** The smallest valid PNG: 1×1, greyscale, one zero byte of image data. */
function tinyPng(): Uint8Array {
  const chunk = (type: string, data: number[]) => {
    const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(body, 4);
    view.setUint32(8 + data.length, crc32(body));
    return [...out];
  };
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]),
    ...chunk('IDAT', [0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]),
    ...chunk('IEND', []),
  ]);
}

describe('crc32', () => {
  it('matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    // The CRC of an IEND chunk every PNG ends with.
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
  });
});

describe('PNG baking', () => {
  it('inserts one uncompressed iTXt openbadgecredential chunk before IEND, with a valid CRC', () => {
    const baked = bakePng(tinyPng(), JWT);
    const chunks = pngChunks(baked); // checks every CRC
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'iTXt', 'IEND']);
    const data = chunks[2]!.data;
    // keyword \0 compression-flag(0) method(0) language "" \0 translated "" \0 text
    expect(new TextDecoder().decode(data)).toBe(`openbadgecredential\0\0\0\0\0${JWT}`);
    expect(extractFromPng(baked)).toBe(JWT);
  });

  it('refuses to bake twice and rejects what is not a PNG or has a bad CRC', () => {
    expect(() => bakePng(bakePng(tinyPng(), JWT), JWT)).toThrow(BadgeError);
    expect(() => extractFromPng(new TextEncoder().encode('GIF89a'))).toThrow(BadgeError);
    const corrupt = bakePng(tinyPng(), JWT);
    corrupt[corrupt.length - 30]! ^= 1; // inside the iTXt text
    expect(() => extractFromPng(corrupt)).toThrow(/CRC/);
  });

  it('finds nothing in a PNG without a credential', () => {
    expect(extractFromPng(tinyPng())).toBeNull();
  });
});

describe('SVG baking', () => {
  const face = {
    title: 'Build <a> "status" page & more',
    organisation: 'Acme & Sons',
    certificateNo: 'VP-7K3M-Q9TD-2XWV',
    issuedAt: new Date('2026-03-14T09:26:53Z'),
  };

  it('adds the namespace and a verify attribute holding the JWT directly after <svg>', () => {
    const baked = bakeSvg(badgeSvg(face), JWT);
    expect(baked).toContain(`xmlns:openbadges="${OB3_NAMESPACE}"`);
    expect(baked).toMatch(/<svg [^>]*>\s*<openbadges:credential verify="[^"]+"><\/openbadges:credential>/);
    expect(extractFromSvg(baked)).toBe(JWT);
    expect(baked.match(/<openbadges:credential/g)).toHaveLength(1);
    expect(() => bakeSvg(baked, JWT)).toThrow(BadgeError);
  });

  it('escapes what it draws', () => {
    const svg = badgeSvg(face);
    expect(svg).toContain('Build &lt;a&gt; "status" page &amp; more');
    expect(svg).toContain('Acme &amp; Sons');
    expect(svg).not.toContain('<a>');
  });

  it('finds nothing in an SVG without a credential', () => {
    expect(extractFromSvg(badgeSvg(face))).toBeNull();
  });
});

describe('the achievement badge’s text', () => {
  it('wraps a title between words into at most two lines, the rest clipped with an ellipsis', () => {
    expect(wrapTitle('Design a bird feeder API', 28, 2)).toEqual(['Design a bird feeder API']);
    expect(wrapTitle('Migrate a monolithic billing service to event-driven microservices', 28, 2)).toEqual([
      'Migrate a monolithic billing',
      'service to event-driven…',
    ]);
    const [only] = wrapTitle('Supercalifragilisticexpialidocious-and-then-some', 28, 2);
    expect([...only!].length).toBeLessThanOrEqual(28);
    expect(only!.endsWith('…')).toBe(true);
  });

  it('names the achievement and its organisation, centred under "VERIFIED WORK"', () => {
    const lines = achievementBadgeLines({ title: 'डेटा विश्लेषण रिपोर्ट', organisation: 'Lipi Labs' });
    expect(lines.map((l) => l.text)).toEqual(['VERIFIED WORK', 'डेटा विश्लेषण रिपोर्ट', 'Lipi Labs']);
    expect(lines.map((l) => l.y)).toEqual([...lines.map((l) => l.y)].sort((a, b) => a - b));
  });
});
