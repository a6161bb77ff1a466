/**
 * The public URLs a credential names, in one place: the credential signs them, the routes serve
 * them, and a change here would orphan every credential already issued, so they never change.
 * Everything is under `{base}/ob/` (Open Badges documents), except the verification page.
 */

/** The organisation-less issuer: the platform itself (credentials from before organisations). */
export const PLATFORM_ISSUER = 'platform';

const trim = (base: string) => base.replace(/\/+$/, '');

/** `kid` of a signing key: dereferences to that one public JWK. */
export const keyUrl = (base: string, thumbprint: string) => `${trim(base)}/ob/keys/${thumbprint}`;

/** `issuer.id`: the organisation's Open Badges `Profile` (the platform's when there is none). */
export const issuerUrl = (base: string, organisationId: string | null) =>
  `${trim(base)}/ob/issuers/${organisationId ?? PLATFORM_ISSUER}`;

/** `credentialSubject.achievement.id`: the brief's public achievement description. */
export const achievementUrl = (base: string, briefId: string) => `${trim(base)}/ob/achievements/${briefId}`;

/** The achievement's `image`: a PNG of its badge (no credential baked in), named after it. */
export const achievementImageUrl = (base: string, briefId: string) =>
  `${achievementUrl(base, briefId)}/image.png`;

/** The achievement's `criteria.id`: a public document of what earns it. */
export const criteriaUrl = (base: string, briefId: string) => `${achievementUrl(base, briefId)}/criteria`;

/** A Bitstring Status List credential (list `n` holds indexes `n·size … (n+1)·size − 1`). */
export const statusListUrl = (base: string, purpose: 'revocation', list: number) =>
  `${trim(base)}/ob/status-lists/${purpose}/${list}`;

/** The page people open (HTML), not the JSON at `/api/verify/{no}`. */
export const verifyPageUrl = (base: string, certificateNo: string) => `${trim(base)}/verify/${certificateNo}`;

/** The official JSON Schema an OB 3.0 AchievementCredential names in `credentialSchema`. */
export const OB_ACHIEVEMENT_CREDENTIAL_SCHEMA =
  'https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json';

/**
 * An organisation's website as an IRI a JSON-LD processor accepts (`issuer.url`, the Profile's
 * `url`): the URL parser's serialisation (punycode host, most unsafe characters encoded), then
 * what RFC 3987 forbids and the parser leaves (`|`, and `{` `}` `^` in a query) percent-encoded.
 * Validation allowed them as typed; a safe-mode processor would read such a value as a relative
 * `@id` and refuse the credential.
 */
export function websiteIri(url: string): string {
  let href: string;
  try {
    href = new URL(url).href;
  } catch {
    return url;
  }
  return href.replace(
    /[\s"<>\\^`{|}]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
