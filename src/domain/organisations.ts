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

/** The mailbox an address delivers to: lower case, without a plus-address tag ("ravi+cv@x" is "ravi@x"). */
export function mailbox(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  return `${plus > 0 ? local.slice(0, plus) : local}@${emailDomain(email)}`;
}

/**
 * Why an organisation may not rate (and so certify) a candidate's work, or null when it may: the
 * candidate is one of its own members under another address (the same mailbox), or writes from
 * the domain the organisation proved it controls (its staff). A certificate tells a verifier that
 * an organisation assessed someone else's work; an organisation certifying itself or its own
 * people would tell them something false.
 */
export function conflictOfInterest(
  candidateEmail: string,
  organisation: { verifiedDomain: string | null; memberEmails: readonly string[] },
): string | null {
  const candidate = mailbox(candidateEmail);
  if (organisation.memberEmails.some((email) => mailbox(email) === candidate))
    return 'This work was submitted by a member of your organisation under another address; an organisation cannot rate its own members.';
  if (organisation.verifiedDomain && emailIsAtDomain(candidateEmail, organisation.verifiedDomain))
    return `This work was submitted from ${organisation.verifiedDomain}, the domain your organisation verified; an organisation cannot rate its own staff.`;
  return null;
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

/** Organisation names are compared by their confusable skeleton (`./issuer-names`). */
export { organisationNameKey } from './issuer-names';

/**
 * The website an organisation's Profile and credentials may carry (`issuer.url`), or null: only an
 * address on the domain the organisation proved by DNS (its verified domain or a subdomain of it),
 * while that proof is its verification. Wallets and verifiers show `issuer.url` as the issuer's
 * site, so a URL nobody checked (`https://www.google.com`) is kept private: the members see it on
 * their organisation, the public never does.
 */
export function publishedWebsite(o: {
  websiteUrl: string | null;
  verification: string;
  verificationMethod: string | null;
  verifiedDomain: string | null;
}): string | null {
  if (!o.websiteUrl || o.verification !== 'verified' || o.verificationMethod !== 'dns' || !o.verifiedDomain)
    return null;
  let host: string;
  try {
    host = new URL(o.websiteUrl).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
  return host === o.verifiedDomain || host.endsWith(`.${o.verifiedDomain}`) ? o.websiteUrl : null;
}
