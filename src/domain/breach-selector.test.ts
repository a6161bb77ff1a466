import { describe, expect, it } from 'vitest';
import { canonicalSelector, selectorProblem } from './breach-selector';

describe('breach selector', () => {
  it('needs all or a criterion, never both', () => {
    expect(selectorProblem({})?.pointer).toBe('#/affected/query');
    expect(selectorProblem({ all: true, role: 'candidate' })?.pointer).toBe('#/affected/query/all');
    expect(selectorProblem({ all: true })).toBeNull();
    expect(selectorProblem({ role: 'employer', briefId: 'b' })).toBeNull();
  });

  it('refuses an empty sign-up window', () => {
    expect(
      selectorProblem({ signedUpAfter: '2026-02-01T00:00:00Z', signedUpBefore: '2026-01-01T00:00:00Z' })
        ?.pointer,
    ).toBe('#/affected/query/signedUpAfter');
  });

  it('stores only the criteria given', () => {
    expect(canonicalSelector({ briefId: 'b', role: 'candidate', organisationId: undefined })).toEqual({
      role: 'candidate',
      briefId: 'b',
    });
  });
});
