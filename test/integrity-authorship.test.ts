/**
 * Who copied whom: a candidate's own work, copied by someone later, is not evidence against the
 * candidate when they hand it in again (black-box finding, 2026-11-25).
 */
import { describe, expect, it } from 'vitest';
import { consent, publishedBrief, signup, submitAndWait, verifiedEmployer } from './harness';
import { as, call } from './helpers';

type Integrity = { verdict: string; plagiarismRisk: number };

/** A text nobody has submitted: 80 made-up words. */
function originalText(seed: string): string {
  const words: string[] = [];
  let x = [...seed].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0, 2166136261);
  for (let i = 0; i < 80; i++) {
    let word = '';
    for (let j = 0; j < 3 + (i % 6); j++) {
      x = Math.imul(x, 1103515245) + 12345;
      word += String.fromCharCode(97 + ((x >>> 16) % 26));
    }
    words.push(word);
  }
  return words.join(' ');
}

async function integrityOf(candidate: Awaited<ReturnType<typeof signup>>, submissionId: string) {
  const view = await (await call(`/api/submissions/${submissionId}`, { headers: as(candidate) })).json<{
    evaluation: { ai: { integrity: Integrity } | null } | null;
  }>();
  return view.evaluation?.ai?.integrity;
}

describe('integrity: who came first', () => {
  it('the author handing in their own text again is clean; the one who copied it is flagged', async () => {
    const employer = await verifiedEmployer();
    const brief = await publishedBrief(employer, { durationDays: 1 });
    const milestoneId = brief.playbook.milestones[0]!.id;
    const [author, copier] = [await signup('candidate', 'Author'), await signup('candidate', 'Copier')];
    for (const person of [author, copier])
      for (const purpose of ['ai_evaluation', 'integrity_corpus']) await consent(person, purpose);
    const text = originalText(crypto.randomUUID());

    const original = await submitAndWait(author, milestoneId, { text });
    const copy = await submitAndWait(copier, milestoneId, { text });
    const again = await submitAndWait(author, milestoneId, { text });

    expect(await integrityOf(author, original.id)).toMatchObject({ verdict: 'clean', plagiarismRisk: 0 });
    expect(await integrityOf(copier, copy.id)).toMatchObject({ verdict: 'flagged' });
    expect((await integrityOf(copier, copy.id))?.plagiarismRisk).toBeGreaterThan(0.5);
    expect(await integrityOf(author, again.id)).toMatchObject({ verdict: 'clean', plagiarismRisk: 0 });
  });
});
