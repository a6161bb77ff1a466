/**
 * "Affected people or a query that selects them" (DPDP Rule 7): the small, closed selector an
 * admin may give instead of a list of account ids. Criteria combine with AND; `all: true` alone
 * selects every account. There is no free-form filter: each criterion maps to one fixed SQL
 * condition (src/services/breaches.ts). Whatever the selector, only accounts that existed when
 * the breach was recorded and are not disabled (erasure pending) are selected.
 */
export type BreachSelector = {
  all?: true | undefined;
  role?: 'candidate' | 'employer' | 'admin' | undefined;
  /** Members of an organisation (its employers). */
  organisationId?: string | undefined;
  /** Candidates who submitted work to a brief. */
  briefId?: string | undefined;
  /** ISO date-times; an account created before / at or after. */
  signedUpBefore?: string | undefined;
  signedUpAfter?: string | undefined;
};

const CRITERIA = ['role', 'organisationId', 'briefId', 'signedUpBefore', 'signedUpAfter'] as const;

/** Why the selector is refused, or null. A selector must say `all: true` or name a criterion, never both. */
export function selectorProblem(s: BreachSelector): { pointer: string; detail: string } | null {
  const named = CRITERIA.filter((k) => s[k] !== undefined);
  if (s.all && named.length > 0)
    return { pointer: '#/affected/query/all', detail: '`all` selects everyone; give it alone' };
  if (!s.all && named.length === 0)
    return {
      pointer: '#/affected/query',
      detail: `Name at least one of ${CRITERIA.join(', ')}, or \`all: true\` for every account`,
    };
  if (s.signedUpBefore && s.signedUpAfter && Date.parse(s.signedUpAfter) >= Date.parse(s.signedUpBefore))
    return { pointer: '#/affected/query/signedUpAfter', detail: 'Must be before `signedUpBefore`' };
  return null;
}

/** The selector as stored with the breach: only the criteria given, in a fixed order. */
export function canonicalSelector(s: BreachSelector): BreachSelector {
  const out: BreachSelector = {};
  if (s.all) out.all = true;
  for (const k of CRITERIA) if (s[k] !== undefined) Object.assign(out, { [k]: s[k] });
  return out;
}
