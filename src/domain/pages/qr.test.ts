import { describe, expect, it } from 'vitest';
import { encodeQr, type QrCode, qrSvgPath } from './qr';

const URL_TEXT = 'https://api.example.com/verify/VP-7K3M-Q9TD-2XWV';

/** The 15 format bits of the first copy (around the top-left finder), unmasked. */
function formatBits(code: QrCode, copy: 1 | 2): number {
  const m = (x: number, y: number) => (code.modules[y]![x] ? 1 : 0);
  const s = code.size;
  const positions: [number, number][] =
    copy === 1
      ? [
          [8, 0],
          [8, 1],
          [8, 2],
          [8, 3],
          [8, 4],
          [8, 5],
          [8, 7],
          [8, 8],
          [7, 8],
          [5, 8],
          [4, 8],
          [3, 8],
          [2, 8],
          [1, 8],
          [0, 8],
        ]
      : [
          [s - 1, 8],
          [s - 2, 8],
          [s - 3, 8],
          [s - 4, 8],
          [s - 5, 8],
          [s - 6, 8],
          [s - 7, 8],
          [s - 8, 8],
          [8, s - 7],
          [8, s - 6],
          [8, s - 5],
          [8, s - 4],
          [8, s - 3],
          [8, s - 2],
          [8, s - 1],
        ];
  return positions.reduce((bits, [x, y], i) => bits | (m(x, y) << i), 0) ^ 0x5412;
}

describe('encodeQr', () => {
  it('picks the smallest version that holds the text (level M, byte mode)', () => {
    expect(encodeQr('hello')).toMatchObject({ version: 1, size: 21 });
    expect(encodeQr(URL_TEXT)).toMatchObject({ version: 4, size: 33 });
    expect(encodeQr('x'.repeat(2331))?.version).toBe(40);
    expect(encodeQr('x'.repeat(2332))).toBeNull();
  });

  it('draws the finder, timing and dark modules and both copies of the format bits', () => {
    for (const text of ['hello', URL_TEXT, 'y'.repeat(300)]) {
      const code = encodeQr(text)!;
      const { size, modules } = code;
      for (const [ox, oy] of [
        [0, 0],
        [size - 7, 0],
        [0, size - 7],
      ] as const) {
        for (let y = 0; y < 7; y++) {
          for (let x = 0; x < 7; x++) {
            const ring = Math.max(Math.abs(x - 3), Math.abs(y - 3));
            expect(modules[oy + y]![ox + x], `finder ${ox},${oy}`).toBe(ring !== 2);
          }
        }
      }
      for (let i = 8; i < size - 8; i++) {
        expect(modules[6]![i]).toBe(i % 2 === 0);
        expect(modules[i]![6]).toBe(i % 2 === 0);
      }
      expect(modules[size - 8]![8]).toBe(true);
      const first = formatBits(code, 1);
      expect(formatBits(code, 2)).toBe(first);
      expect(first >> 13).toBe(0); // level M
      expect((first >> 10) & 7).toBe(code.mask);
    }
  });

  // Pinned after decoding the rendered code with zbarimg: changing the encoder must keep
  // producing exactly this symbol (or be re-checked with a decoder).
  it('encodes a verification URL to a known symbol', () => {
    const code = encodeQr(URL_TEXT)!;
    expect(code.mask).toBe(4);
    expect(code.modules.map((row) => row.map((dark) => (dark ? '#' : '.')).join(''))).toEqual([
      '#######.##..#..####...##..#######',
      '#.....#...##.....#.#.#....#.....#',
      '#.###.#...####.....#.####.#.###.#',
      '#.###.#.#...#.##.##.##.##.#.###.#',
      '#.###.#.###.#.#..########.#.###.#',
      '#.....#.#...###.##.#......#.....#',
      '#######.#.#.#.#.#.#.#.#.#.#######',
      '........#.#.#.#####..####........',
      '#...#.###.##..#..#.###########..#',
      '##...#.#...######.#..#.#.#...###.',
      '.####.##.#.....#.#...###.##..#...',
      '.#..#..#..#.#.#########.##.......',
      '..##..##...#.###..#.#.###.#.##.##',
      '..........#..#..##.#..###.#..#...',
      '####..##....#.#.####.###.##.#..#.',
      '#..#.#..####.##..#####.####..#...',
      '#.##..###.....##.##.###.#.#.##.#.',
      '#.#.##..#.#..#.####.#..###...##.#',
      '###.#.#...##...##.#.#..##..#.#.#.',
      '#.#....###.##...#...##.#.#.#....#',
      '#.##..#.#..##.#.#..#..#####..#..#',
      '####...######....######....#.###.',
      '...#####..####.#..#.##.#......##.',
      '..#.#...#..###.####..#.###.##....',
      '###...##..####..##.####.#####.###',
      '........###.##.##.....#.#...#.#.#',
      '#######.##.....#.#......#.#.##.#.',
      '#.....#..##.####.##.###.#...#..##',
      '#.###.#.#..##.#...#.#...######...',
      '#.###.#..##.....#..#....#.###....',
      '#.###.#...####..#.##.###.####.#..',
      '#.....#...#..##..#.####...#..#...',
      '#######.#....###.#..#####.#..#..#',
    ]);
  });

  it('renders one SVG rectangle per horizontal run, offset by the quiet zone', () => {
    const code = encodeQr('hello')!;
    const path = qrSvgPath(code);
    expect(path.startsWith('M4 4h7v1h-7z')).toBe(true); // the top row of the top-left finder
    const darkModules = code.modules.flat().filter(Boolean).length;
    const drawn = [...path.matchAll(/h(\d+)v1/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(drawn).toBe(darkModules);
  });
});
