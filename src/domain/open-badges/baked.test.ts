import { describe, expect, it } from 'vitest';
import { bakePng, bakeSvg, crc32 } from '../certificates/badge';
import { OB3_NAMESPACE, readBakedPng, readBakedSvg } from './baked';
import { readPresented } from './presented';

const A = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJodHRwczovL2EuZXhhbXBsZSJ9.c2lnQQ';
const B = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJodHRwczovL2IuZXhhbXBsZSJ9.c2lnQg';
const NS = `xmlns="http://www.w3.org/2000/svg" xmlns:openbadges="${OB3_NAMESPACE}"`;

const credentialOf = (result: ReturnType<typeof readBakedSvg>) =>
  'credential' in result ? result.credential : `error: ${result.error}`;

function chunk(type: string, data: Uint8Array, badCrc = false): number[] {
  const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(body, 4);
  view.setUint32(8 + data.length, badCrc ? crc32(body) ^ 1 : crc32(body));
  return [...out];
}
const iTxt = (keyword: string, text: string) =>
  new Uint8Array([...new TextEncoder().encode(`${keyword}\0\0\0\0\0`), ...new TextEncoder().encode(text)]);
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR = chunk('IHDR', new Uint8Array([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]));
const IDAT = chunk('IDAT', new Uint8Array([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]));
const IEND = chunk('IEND', new Uint8Array());
const png = (...chunks: number[][]) => new Uint8Array([...SIGNATURE, ...chunks.flat()]);

describe('SVG: namespaced XML, one candidate', () => {
  it('reads the verify attribute of the credential element, whatever its prefix', () => {
    expect(credentialOf(readBakedSvg(`<svg ${NS}><openbadges:credential verify="${A}"/></svg>`))).toBe(A);
    expect(
      credentialOf(
        readBakedSvg(
          `<svg xmlns="http://www.w3.org/2000/svg" xmlns:ob="${OB3_NAMESPACE}"><ob:credential verify="${A}"></ob:credential></svg>`,
        ),
      ),
    ).toBe(A);
    // The element's body (a JSON credential), in CDATA.
    expect(
      credentialOf(
        readBakedSvg(
          `<svg ${NS}><openbadges:credential><![CDATA[{"a":"<b>"}]]></openbadges:credential></svg>`,
        ),
      ),
    ).toBe('{"a":"<b>"}');
    // What this site bakes.
    expect(credentialOf(readBakedSvg(bakeSvg('<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>', A)))).toBe(
      A,
    );
  });

  it('a credential inside a comment never counts (the attack: one in a comment, another in the element)', () => {
    const svg = `<svg ${NS}><!-- <openbadges:credential verify="${B}"/> --><openbadges:credential verify="${A}"/></svg>`;
    expect(credentialOf(readBakedSvg(svg))).toBe(A);
    const onlyComment = `<svg ${NS}><!-- <openbadges:credential verify="${B}"/> --></svg>`;
    expect(credentialOf(readBakedSvg(onlyComment))).toMatch(/no Open Badges credential/);
    // Nor inside CDATA or a processing instruction.
    expect(
      credentialOf(
        readBakedSvg(
          `<svg ${NS}><text><![CDATA[<openbadges:credential verify="${B}"/>]]></text><?pi <openbadges:credential verify="${B}"/> ?></svg>`,
        ),
      ),
    ).toMatch(/no Open Badges credential/);
  });

  it('an element of another namespace with the same prefixed name is not a candidate', () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><g xmlns:openbadges="https://evil.example/ns"><openbadges:credential verify="${B}"/></g><o:credential xmlns:o="${OB3_NAMESPACE}" verify="${A}"/></svg>`;
    expect(credentialOf(readBakedSvg(svg))).toBe(A);
  });

  it('more than one candidate is refused: two elements, or a verify attribute and a body', () => {
    expect(
      credentialOf(
        readBakedSvg(
          `<svg ${NS}><openbadges:credential verify="${A}"/><openbadges:credential verify="${B}"/></svg>`,
        ),
      ),
    ).toMatch(/2 credentials.*ambiguous; refused/);
    expect(
      credentialOf(
        readBakedSvg(`<svg ${NS}><openbadges:credential verify="${A}">${B}</openbadges:credential></svg>`),
      ),
    ).toMatch(/ambiguous; refused/);
  });

  it('no entity is expanded: a DOCTYPE with declarations and unknown entities are refused', () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "${A}">]><svg ${NS}><openbadges:credential verify="&a;"/></svg>`;
    expect(credentialOf(readBakedSvg(bomb))).toMatch(/DOCTYPE with declarations/);
    expect(credentialOf(readBakedSvg(`<svg ${NS}><openbadges:credential verify="&a;"/></svg>`))).toMatch(
      /entity reference/,
    );
    // The predefined ones and character references are read; a plain DOCTYPE is allowed.
    const plain = `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg ${NS}><openbadges:credential verify="&#x65;&amp;"/></svg>`;
    expect(credentialOf(readBakedSvg(plain))).toBe('e&');
  });

  it('malformed XML is refused, not guessed at', () => {
    for (const svg of [
      `<svg ${NS}><openbadges:credential verify="${A}"/>`, // never closed
      `<svg ${NS}><g></svg>`, // mismatched
      `<svg xmlns="http://www.w3.org/2000/svg"><openbadges:credential verify="${A}"/></svg>`, // undeclared prefix
      `<svg ${NS} a="1" a="2"/>`, // duplicate attribute
      `<svg ${NS}/><svg ${NS}/>`, // two roots
      `<html ${NS}><openbadges:credential verify="${A}"/></html>`, // not an SVG
      `<svg ${NS}><!-- unterminated`,
      `<svg ${NS}>${'<g>'.repeat(300)}${'</g>'.repeat(300)}</svg>`, // too deep
    ])
      expect(credentialOf(readBakedSvg(svg)), svg.slice(0, 80)).toMatch(/^error: /);
  });

  it('a large flat SVG is read in linear time', () => {
    const svg = `<svg ${NS}>${'<!-- x --><g a="1"/>'.repeat(40_000)}<openbadges:credential verify="${A}"/></svg>`;
    const started = Date.now();
    expect(credentialOf(readBakedSvg(svg))).toBe(A);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('PNG: chunk by chunk, every CRC checked, one candidate', () => {
  it('reads the one iTXt openbadgecredential chunk (and what this site bakes)', () => {
    expect(readBakedPng(png(IHDR, IDAT, chunk('iTXt', iTxt('openbadgecredential', A)), IEND))).toEqual({
      credential: A,
    });
    expect(readBakedPng(bakePng(png(IHDR, IDAT, IEND), A))).toEqual({ credential: A });
  });

  it('a malformed chunk before the real one refuses the image (the attack: a bad CRC, a lying length)', () => {
    const bad = readBakedPng(
      png(
        IHDR,
        chunk('iTXt', iTxt('openbadgecredential', B), true),
        chunk('iTXt', iTxt('openbadgecredential', A)),
        IEND,
      ),
    );
    expect(bad).toEqual({ error: expect.stringMatching(/chunk 1 \(iTXt\) fails its CRC/) });
    const lying = png(IHDR, IDAT, IEND);
    new DataView(lying.buffer).setUint32(8 + 25, 0xffff); // IDAT's length, past the end
    expect(readBakedPng(lying)).toEqual({ error: expect.stringMatching(/longer than the file/) });
  });

  it('two credential chunks, data after IEND, no IHDR first, or no IEND are refused', () => {
    const two = png(
      IHDR,
      chunk('iTXt', iTxt('openbadgecredential', A)),
      chunk('iTXt', iTxt('openbadgecredential', B)),
      IEND,
    );
    expect(readBakedPng(two)).toEqual({ error: expect.stringMatching(/2 "openbadgecredential" chunks/) });
    const textToo = png(
      IHDR,
      chunk('tEXt', iTxt('openbadgecredential', B)),
      chunk('iTXt', iTxt('openbadgecredential', A)),
      IEND,
    );
    expect(readBakedPng(textToo)).toEqual({ error: expect.stringMatching(/ambiguous; refused/) });
    const appended = new Uint8Array([
      ...png(IHDR, chunk('iTXt', iTxt('openbadgecredential', A)), IEND),
      ...png(IHDR, IEND),
    ]);
    expect(readBakedPng(appended)).toEqual({ error: expect.stringMatching(/after IEND/) });
    expect(readBakedPng(png(IDAT, IEND))).toEqual({ error: expect.stringMatching(/IHDR/) });
    expect(readBakedPng(png(IHDR, chunk('iTXt', iTxt('openbadgecredential', A))))).toEqual({
      error: expect.stringMatching(/IEND/),
    });
  });

  it('readPresented uses this one reader for both images', () => {
    const svg = new TextEncoder().encode(
      `<svg ${NS}><!-- <openbadges:credential verify="${B}"/> --><openbadges:credential verify="${A}"/></svg>`,
    );
    expect(readPresented(svg, 'svg')).toEqual({ form: 'jwt', jwt: A, container: 'svg' });
    const two = png(
      IHDR,
      chunk('iTXt', iTxt('openbadgecredential', A)),
      chunk('iTXt', iTxt('openbadgecredential', B)),
      IEND,
    );
    expect(readPresented(two, 'png')).toEqual({ error: expect.stringMatching(/ambiguous/) });
  });
});
