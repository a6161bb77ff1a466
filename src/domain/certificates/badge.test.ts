import { describe, expect, it } from 'vitest';
import {
  achievementBadgeLines,
  BadgeError,
  type BadgeLine,
  badgeSvg,
  bakePng,
  bakeSvg,
  certificateBadgeLines,
  chordWidth,
  crc32,
  estimateWidth,
  extractFromPng,
  extractFromSvg,
  OB3_NAMESPACE,
  pngChunks,
  TEXT_RADIUS,
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

describe('the badge design', () => {
  const face = {
    title: 'Build a REST API for a todo app',
    organisation: 'Acme Software',
    certificateNo: 'VP-7K3M-Q9TD-2XWV',
    issuedAt: new Date('2026-03-14T09:26:53Z'),
  };
  /** The longest title and organisation name the API accepts (200 characters each). */
  const LONGEST_TITLE = (
    'Design, build, test and deploy an accessible, internationalised, offline-first progressive web ' +
    'application for booking community health clinic appointments across rural districts, with reports ' +
    'and more'
  ).slice(0, 200);
  const LONGEST_ORGANISATION = `${'Very Long Organisation Name Private Limited '.repeat(5)}`.slice(0, 200);

  /** Every line inside the disc: within its chord (so clear of the ring), in order, not overlapping. */
  function expectInside(lines: BadgeLine[]) {
    let previousBottom = 0;
    for (const line of lines) {
      const width = estimateWidth(line.text, line.size, line.bold, line.letterSpacing);
      expect(width, line.text).toBeLessThanOrEqual(line.maxWidth);
      expect(line.maxWidth).toBeLessThanOrEqual(chordWidth(line.y, line.size));
      // The line's box, corners included, is within the text circle.
      const top = line.y - 0.95 * line.size;
      const bottom = line.y + 0.3 * line.size;
      for (const y of [top, bottom])
        expect(Math.hypot(width / 2, y - 200), line.text).toBeLessThanOrEqual(TEXT_RADIUS);
      expect(top).toBeGreaterThanOrEqual(previousBottom - 0.5);
      previousBottom = bottom;
    }
  }

  it('names the achievement and the issuer in the SVG’s text, and the number and month', () => {
    const svg = badgeSvg(face);
    const texts = [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(texts[0]).toBe('VERIFIED WORK');
    expect(texts.join(' ')).toContain('Build a REST API for a todo');
    expect(texts).toContain('by Acme Software');
    expect(texts).toContain('VP-7K3M-Q9TD-2XWV');
    expect(texts).toContain('Mar 2026');
    expect(svg).toContain(
      '<title>Verified work badge: Build a REST API for a todo app, by Acme Software, VP-7K3M-Q9TD-2XWV</title>',
    );
    expectInside(certificateBadgeLines(face));
  });

  it('shows a short title whole, in one or two lines at the largest size', () => {
    const lines = certificateBadgeLines({ ...face, title: 'Bird feeder API' });
    const title = lines.filter((l) => l.bold);
    expect(title.map((l) => l.text)).toEqual(['Bird feeder API']);
    expect(title[0]!.size).toBe(22);
  });

  it('shrinks a long title until it fits whole, every line inside the ring', () => {
    const long = 'Migrate a monolithic billing service to event-driven microservices with zero downtime';
    const lines = certificateBadgeLines({ ...face, title: long });
    const title = lines.filter((l) => l.bold);
    expect(title.map((l) => l.text).join(' ')).toBe(long);
    expect(title.length).toBeLessThanOrEqual(3);
    expect(title[0]!.size).toBeLessThan(22);
    expectInside(lines);
  });

  it('fits the longest title and organisation the API accepts, clipped with "…" and inside the ring', () => {
    expect([...LONGEST_TITLE].length).toBe(200);
    for (const lines of [
      certificateBadgeLines({ ...face, title: LONGEST_TITLE, organisation: LONGEST_ORGANISATION }),
      achievementBadgeLines({ title: LONGEST_TITLE, organisation: LONGEST_ORGANISATION }),
    ]) {
      expectInside(lines);
      const title = lines.filter((l) => l.bold);
      expect(title).toHaveLength(3);
      expect(title.at(-1)!.text.endsWith('…')).toBe(true);
      expect(lines.filter((l) => l.text.startsWith('by ') || !l.bold).length).toBeGreaterThan(1);
    }
    // An unbroken 200-character word is cut between characters, never overflowing.
    expectInside(certificateBadgeLines({ ...face, title: 'x'.repeat(200), organisation: 'W'.repeat(200) }));
  });

  it('fits Devanagari and Tamil names inside the ring', () => {
    expectInside(
      certificateBadgeLines({
        ...face,
        title: 'डेटा विश्लेषण रिपोर्ट और डैशबोर्ड का निर्माण',
        organisation: 'लिपि लैब्स',
      }),
    );
    expectInside(
      achievementBadgeLines({ title: 'தரவு பகுப்பாய்வு அறிக்கை மற்றும் காட்சிப் பலகை', organisation: 'லிபி' }),
    );
  });
});

describe('the achievement badge’s text', () => {
  it('wraps a title between words into at most two lines, the rest clipped with an ellipsis', () => {
    expect(wrapTitle('Design a bird feeder API', 28, 2)).toEqual(['Design a bird feeder API']);
    expect(wrapTitle('Migrate a monolithic billing service to event-driven microservices', 28, 2)).toEqual([
      'Migrate a monolithic billing',
      'service to event-driven…',
    ]);
    const lines = wrapTitle('Supercalifragilisticexpialidocious-and-then-some', 28, 2);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(28);
    expect(lines.join('')).toBe('Supercalifragilisticexpialidocious-and-then-some');
  });

  it('names the achievement and its organisation, centred under "VERIFIED WORK"', () => {
    const lines = achievementBadgeLines({ title: 'डेटा विश्लेषण रिपोर्ट', organisation: 'Lipi Labs' });
    expect(lines.map((l) => l.text)).toEqual(['VERIFIED WORK', 'डेटा विश्लेषण रिपोर्ट', 'by Lipi Labs']);
    expect(lines.map((l) => l.y)).toEqual([...lines.map((l) => l.y)].sort((a, b) => a - b));
  });
});
