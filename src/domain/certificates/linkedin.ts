/**
 * LinkedIn's "Add to profile" link for a certification: opens the member's profile editor with a
 * license or certification filled in. Documented parameters (LinkedIn "Add to Profile for
 * Certifications"): `startTask=CERTIFICATION_NAME`, `name`, `organizationId` (a LinkedIn company
 * page id) or `organizationName`, `issueYear`, `issueMonth` (1–12), optional `expirationYear` /
 * `expirationMonth`, `certUrl` (where the certification can be checked) and `certId`. Pure.
 */

export const LINKEDIN_ADD_TO_PROFILE = 'https://www.linkedin.com/profile/add';

export type LinkedInCertification = {
  /** The certification's name: the brief's title. */
  name: string;
  /** The issuing organisation, by the name signed into the credential. */
  organisationName: string;
  /** A LinkedIn company page id, when the organisation has one (LinkedIn then links its page). */
  organisationLinkedInId?: string | null;
  issuedAt: Date;
  expiresAt?: Date | null;
  certificateNo: string;
  /** The public verification page, `{base}/verify/{no}`. */
  verifyUrl: string;
};

/** The add-to-profile URL; dates are taken in UTC, as certificates show them. */
export function linkedInAddToProfileUrl(cert: LinkedInCertification): string {
  const url = new URL(LINKEDIN_ADD_TO_PROFILE);
  const q = url.searchParams;
  q.set('startTask', 'CERTIFICATION_NAME');
  q.set('name', cert.name);
  if (cert.organisationLinkedInId && /^\d+$/.test(cert.organisationLinkedInId)) {
    q.set('organizationId', cert.organisationLinkedInId);
  } else {
    q.set('organizationName', cert.organisationName);
  }
  q.set('issueYear', String(cert.issuedAt.getUTCFullYear()));
  q.set('issueMonth', String(cert.issuedAt.getUTCMonth() + 1));
  if (cert.expiresAt) {
    q.set('expirationYear', String(cert.expiresAt.getUTCFullYear()));
    q.set('expirationMonth', String(cert.expiresAt.getUTCMonth() + 1));
  }
  q.set('certUrl', cert.verifyUrl);
  q.set('certId', cert.certificateNo);
  return url.href;
}
