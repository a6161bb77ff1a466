/**
 * One verdict from the checks of a credential, worst first:
 *
 * 1. `invalid`: it is not a well-formed Open Badges 3.0 credential, its signature or claims fail,
 *    or it is not valid yet;
 * 2. `unverifiable`: its signature could not be checked (key unreachable, refused address, a proof
 *    form not checked here), so nothing it says can be trusted either way;
 * 3. `revoked`, then `suspended` (its status bit, or an issuer suspended here);
 * 4. `expired`;
 * 5. `unverifiable` again when the signature holds but the status list could not be read;
 * 6. `valid`. A warning (the issuer Profile unreachable, say) never changes the verdict.
 */
import type { Check } from './checks';

export type Verdict = 'valid' | 'revoked' | 'suspended' | 'expired' | 'invalid' | 'unverifiable';

export type StatusFinding = 'active' | 'revoked' | 'suspended' | 'unknown' | 'none';

export function verdictOf(
  checks: Check[],
  facts: { expired: boolean; status: StatusFinding; issuerSuspended: boolean },
): Verdict {
  const outcome = (name: Check['check']) => checks.find((c) => c.check === name)?.outcome;
  const structural = ['parse', 'context', 'schema', 'signature', 'claims'] as const;
  if (structural.some((name) => outcome(name) === 'failed')) return 'invalid';
  if (outcome('times') === 'failed' && !facts.expired) return 'invalid';
  if (outcome('signature') !== 'passed') return 'unverifiable';
  if (facts.status === 'revoked') return 'revoked';
  if (facts.status === 'suspended' || facts.issuerSuspended) return 'suspended';
  if (facts.expired) return 'expired';
  if (facts.status === 'unknown') return 'unverifiable';
  return 'valid';
}

const SENTENCES: Record<Verdict, string> = {
  valid: 'Valid: signed by its issuer, not revoked and not expired.',
  revoked: 'Revoked by its issuer.',
  suspended: 'Suspended: the credential or its issuer is suspended.',
  expired: 'Expired.',
  invalid: 'Invalid: not a genuine Open Badges 3.0 credential as presented.',
  unverifiable: 'Could not be verified: a check could not be completed.',
};

export const verdictSentence = (verdict: Verdict) => SENTENCES[verdict];
