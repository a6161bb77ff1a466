/**
 * Rules about organisations that need no database: which domains a person may prove, what the
 * DNS proof looks like, and which review decisions an admin may take.
 */

/** The DNS name an organisation publishes its proof at. */
export const verificationRecordName = (domain: string) => `_vp-verification.${domain}`;

/** The TXT value that proves control of a domain: carries the organisation's random token. */
export const verificationRecordValue = (token: string) => `vp-verification=${token}`;

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A domain as stored: lower case, no trailing dot; null when it is not a plausible public DNS name. */
export function normaliseDomain(input: string): string | null {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  return DOMAIN.test(domain) ? domain : null;
}

/** The domain part of an email address, lower case. */
export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * A person may prove a domain only if their own email is at it (or at a subdomain of it):
 * controlling DNS for `acme.com` proves nothing about a person whose address is elsewhere.
 */
export function emailIsAtDomain(email: string, domain: string): boolean {
  const at = emailDomain(email);
  return at === domain || at.endsWith(`.${domain}`);
}

/**
 * TXT strings as DNS-over-HTTPS JSON resolvers return them: each record's `data` is one or more
 * quoted character-strings (`"a" "b"` for a split record), which concatenate.
 */
export function txtValues(answers: readonly { type?: number; data?: unknown }[]): string[] {
  const TXT = 16;
  return answers
    .filter((a) => a.type === TXT && typeof a.data === 'string')
    .map((a) => {
      const data = a.data as string;
      const parts = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) =>
        (m[1] ?? '').replace(/\\(.)/g, '$1'),
      );
      return parts.length > 0 ? parts.join('') : data;
    });
}

export type Verification = 'unverified' | 'pending' | 'verified' | 'rejected' | 'suspended';

/** An admin's review: any state may be verified, rejected or suspended, except to itself. */
export function reviewAllowed(from: Verification, to: 'verified' | 'rejected' | 'suspended'): boolean {
  return from !== to;
}

/**
 * What makes two organisation names the same to a reader: Unicode compatibility forms folded
 * (NFKC), case folded, and everything but letters and digits dropped ("Demo Hiring Co." and
 * "demo  hiring-co" are one name). Verified organisations may not share one.
 */
export function organisationNameKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}
