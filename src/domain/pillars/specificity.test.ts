import { describe, expect, it } from 'vitest';
import { maskedTask, sharedTaskShare } from './knowledge/specificity';
import type { Playbook, PlaybookBrief } from './types';

const brief = (deliverable: string): PlaybookBrief => ({
  title: `Project about ${deliverable}`,
  domain: 'unknown',
  durationDays: 3,
  deliverables: [deliverable],
  successCriteria: ['Approved by the owner'],
});
const plan = (tasks: string[]): Playbook => ({
  milestones: [{ id: 'm1', day: 3, title: 'All', tasks, tutorial_links: [] }],
  rubric_preview: { criteria: [], passThreshold: 3 },
});

describe('the template measure compares task skeletons case-insensitively', () => {
  it('masks a deliverable whatever its case, spacing or quotes inside the task', () => {
    const b = brief('Loss Triangles  by “accident” year');
    expect(maskedTask('Break loss triangles by "accident" year into steps', b)).toBe('break ▢ into steps');
    expect(maskedTask('BREAK LOSS TRIANGLES BY “ACCIDENT” YEAR INTO STEPS', b)).toBe('break ▢ into steps');
  });

  it('counts a template that lower-cases one deliverable and not the other as shared', () => {
    const a = brief('A Hindi Translation');
    const b = brief('Route Maps');
    const share = sharedTaskShare(
      plan(['Break a hindi translation into steps you can finish in a day', 'Check the glossary twice']),
      a,
      plan(['Break Route Maps into steps you can finish in a day', 'Walk every route once']),
      b,
    );
    expect(share).toBe(0.5);
  });
});
