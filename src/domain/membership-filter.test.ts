import { describe, expect, it } from 'vitest';
import { BloomFilter, filterSize } from './membership-filter';

const numbers = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe('BloomFilter', () => {
  it('has every string added (no false negatives)', () => {
    const filter = BloomFilter.forCapacity(5_000, 0.01);
    const added = numbers('VP-A', 5_000);
    for (const s of added) filter.add(s);
    expect(added.every((s) => filter.has(s))).toBe(true);
    expect(filter.count).toBe(5_000);
  });

  it('answers false for absent strings at about the chosen rate when full', () => {
    const filter = BloomFilter.forCapacity(10_000, 0.01);
    for (const s of numbers('VP-IN', 10_000)) filter.add(s);
    const absent = numbers('VP-OUT', 20_000);
    const falsePositives = absent.filter((s) => filter.has(s)).length / absent.length;
    expect(falsePositives).toBeGreaterThan(0.002);
    expect(falsePositives).toBeLessThan(0.02);
  });

  it('an empty filter has nothing', () => {
    const filter = BloomFilter.forCapacity(100, 0.01);
    expect(numbers('x', 100).some((s) => filter.has(s))).toBe(false);
  });

  it('round-trips through bytes, and refuses a truncated or foreign value', () => {
    const filter = BloomFilter.forCapacity(1_000, 0.01);
    for (const s of numbers('VP', 1_000)) filter.add(s);
    const bytes = filter.toBytes();
    const back = BloomFilter.fromBytes(bytes.buffer.slice(0) as ArrayBuffer);
    expect(back.bits).toBe(filter.bits);
    expect(back.hashes).toBe(filter.hashes);
    expect(back.count).toBe(1_000);
    expect(numbers('VP', 1_000).every((s) => back.has(s))).toBe(true);
    expect(numbers('other', 1_000).filter((s) => back.has(s))).toEqual(
      numbers('other', 1_000).filter((s) => filter.has(s)),
    );
    expect(() => BloomFilter.fromBytes(bytes.slice(0, bytes.length - 1))).toThrow('inconsistent');
    expect(() => BloomFilter.fromBytes(new TextEncoder().encode('not a filter at all'))).toThrow(
      'not a filter',
    );
    expect(() => BloomFilter.fromBytes(new Uint8Array(3))).toThrow('too short');
  });

  it('sizes 1 M numbers at 1 % in about 1.2 MB with 7 hashes, at 0.1 % in 1.8 MB with 10; 10 M in 12 / 18 MB', () => {
    const million = filterSize(1_000_000, 0.01);
    expect(million.hashes).toBe(7);
    expect(million.bits / 8 / 1e6).toBeCloseTo(1.198, 2);
    expect(filterSize(10_000_000, 0.01).bits / 8 / 1e6).toBeCloseTo(11.98, 1);
    const strict = filterSize(1_000_000, 0.001);
    expect(strict.hashes).toBe(10);
    expect(strict.bits / 8 / 1e6).toBeCloseTo(1.797, 2);
    // 10 M at 0.1 %: 18 MB, inside KV's 25 MiB per value.
    expect(filterSize(10_000_000, 0.001).bits / 8).toBeLessThan(25 * 2 ** 20);
  });

  it('at 0.1 % about one absent string in a thousand is a false positive', () => {
    const filter = BloomFilter.forCapacity(10_000, 0.001);
    for (const s of numbers('VP-IN', 10_000)) filter.add(s);
    const absent = numbers('VP-OUT', 50_000);
    const rate = absent.filter((s) => filter.has(s)).length / absent.length;
    expect(rate).toBeLessThan(0.003);
  });
});
