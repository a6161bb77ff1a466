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

/**
 * Cyrillic, Greek and Armenian letters drawn like Latin ones, by case (Greek Ν is N, ν is v), from
 * Unicode's confusables data (UTS #39). Enough for a name written wholly in look-alikes ("Асме"
 * in Cyrillic) to meet the Latin name it imitates; mixing scripts inside a word is refused anyway.
 */
const LATIN_LOOK_ALIKES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    // Cyrillic capitals and small letters
    'АA ВB ЕE ЅS ІI ЈJ КK МM НH ОO РP СC ТT ХX УY ҮY ҺH ӀI ԚQ ԜW',
    'аa вb гr еe ѕs іi јj кk мm нh оo рp сc тt хx уy үy һh ӏl ԁd ԛq ԝw ɡg',
    // Greek capitals and small letters
    'ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX',
    'αa βb γy ιi κk νv οo ρp τt υu χx ωw',
    // Armenian
    'ՕO Սu օo սu հh ոn ցg',
  ]
    .join(' ')
    .split(' ')
    .map((pair) => [...pair] as [string, string]),
);

/**
 * What makes two organisation names the same to a reader: Unicode compatibility forms folded
 * (NFKC), Cyrillic, Greek and Armenian look-alikes read as the Latin letters they imitate, case
 * folded, everything but letters and digits dropped, and the letters a reader cannot tell
 * apart in many fonts merged (1, i and l; 0 and o; "rn" and m; "vv" and w). So "Demo Hiring Co.",
 * "demo  hiring-co", "Dem0 Hiring Co" and "Demо Hiring Co" (a Cyrillic о) are one name, and
 * verified organisations may not share one.
 */
export function organisationNameKey(name: string): string {
  return [...name.normalize('NFKC')]
    .map((ch) => LATIN_LOOK_ALIKES[ch] ?? ch)
    .join('')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .replace(/[1il]/g, 'l')
    .replace(/0/g, 'o')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w');
}
