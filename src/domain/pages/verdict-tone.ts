/**
 * Which of the pages' honest states a verification lands in (issue 52). Three for a reader:
 *
 * - `verified`: valid, and the issuer is an organisation verified here (green);
 * - `unvetted`: a genuine, current signature by an issuer nobody here has vetted (amber: the
 *   signature holds, the issuer's identity is not confirmed, its name is its own claim);
 * - `invalid`: altered, not genuine, revoked, suspended or expired (red, the state first);
 *
 * and `unknown` when a check could not be completed or nothing is signed yet (grey: neither
 * way). Pure: no bindings.
 */
import type { Check } from '../open-badges/checks';
import type { Verdict } from '../open-badges/verdict';

export type Tone = 'verified' | 'unvetted' | 'invalid' | 'unknown';

/** The tone of a report of `POST /api/credentials/verify` (any issuer's credential). */
export function toneOfReport(report: { verdict: Verdict; issuer: { verifiedHere: boolean } }): Tone {
  switch (report.verdict) {
    case 'valid':
      return report.issuer.verifiedHere ? 'verified' : 'unvetted';
    case 'unverifiable':
      return 'unknown';
    default:
      return 'invalid';
  }
}

/** The tone of one of our certificates by its public status. */
export function toneOfStatus(
  status: 'active' | 'revoked' | 'pending_issuer' | 'suspended' | 'expired',
  organisationVerification: string | null | undefined,
): Tone {
  if (status === 'active') return 'verified';
  if (status === 'pending_issuer') return organisationVerification === 'rejected' ? 'invalid' : 'unknown';
  return 'invalid';
}

/** Whether a claim of the credential may be shown as what it says: never for an altered or unreadable one. */
export const claimsShowable = (verdict: Verdict): boolean =>
  verdict !== 'invalid' && verdict !== 'unverifiable';

/**
 * What the status check found about revocation: `none` when the credential has no
 * `credentialStatus` (the issuer offers no revocation), `checked` when a list was read.
 */
export function revocationOf(checks: readonly Check[]): 'none' | 'checked' | 'unknown' {
  const status = checks.find((c) => c.check === 'status');
  if (!status) return 'unknown';
  if (status.outcome === 'passed' && /^No credentialStatus/.test(status.detail)) return 'none';
  if (status.outcome === 'passed') return 'checked';
  return 'unknown';
}

/** The first check that failed or could not be completed: what a red or grey verdict names. */
export const failingCheck = (checks: readonly Check[]): Check | undefined =>
  checks.find((c) => c.outcome === 'failed') ?? checks.find((c) => c.outcome === 'unverifiable');
