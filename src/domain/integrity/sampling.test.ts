import { describe, expect, it } from 'vitest';
import { sampleFingerprints } from './sampling';
import { fingerprintSubmission } from './winnowing';

const words = (seed: number, n: number) =>
  Array.from({ length: n }, (_, i) => `w${((i + 1) * 2654435761 + seed * 97) % 1000003}`).join(' ');

describe('sampleFingerprints', () => {
  it('returns everything under the cap, unchanged', () => {
    const prints = fingerprintSubmission({ text: words(1, 200) });
    expect(sampleFingerprints(prints, prints.length)).toBe(prints);
  });

  it('keeps at most the cap, the smallest hashes, in position order', () => {
    const prints = fingerprintSubmission({ text: words(2, 5_000) });
    expect(prints.length).toBeGreaterThan(1_000);
    const kept = sampleFingerprints(prints, 500);
    expect(kept).toHaveLength(500);
    const positions = kept.map((p) => p.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const threshold = Math.max(...kept.map((p) => p.hash));
    expect(prints.filter((p) => p.hash < threshold).length).toBeLessThanOrEqual(500);
  });

  it('samples the same passage the same way in two documents, wherever it sits', () => {
    const passage = words(3, 3_000);
    const a = sampleFingerprints(fingerprintSubmission({ text: `${words(4, 3_000)} ${passage}` }), 600);
    const b = sampleFingerprints(fingerprintSubmission({ text: `${passage} ${words(5, 3_000)}` }), 600);
    const shared = new Set(a.map((p) => p.hash).filter((h) => b.some((q) => q.hash === h)));
    // About half of each sample comes from the shared passage; most of it is common to both.
    expect(shared.size).toBeGreaterThan(200);
  });
});
