/**
 * The machine-readable copy of a certificate DigiLocker keeps beside the PDF (`DataContent`):
 * an XML document in the shape of DigiLocker's certificate metadata (`Certificate` with
 * `IssuedBy`, `IssuedTo` and `CertificateData`), holding what the printed certificate shows and
 * the signed Open Badges 3.0 credential, so that whoever receives it from DigiLocker can check
 * it with us or on its own. Only what the certificate already makes public: no email, no date of
 * birth (decision 0360).
 */
import { digiLockerDate } from './protocol';
import { serialiseXml } from './xml';

export type CertificateData = {
  docType: string;
  uri: string;
  certificateNo: string;
  holderName: string;
  achievement: { title: string; domain: string };
  issuer: { name: string; platform: string };
  issuedAt: Date;
  validUntil: Date | null;
  verifyUrl: string;
  /** The Open Badges 3.0 AchievementCredential, VC-JWT compact form. */
  credentialJwt: string;
};

const day = (d: Date) => digiLockerDate(d.toISOString().slice(0, 10));

export function certificateDataXml(data: CertificateData): string {
  return serialiseXml({
    name: 'Certificate',
    attributes: {
      language: 'en',
      name: 'Certificate of verified work',
      type: data.docType,
      number: data.certificateNo,
      uri: data.uri,
      issueDate: day(data.issuedAt),
      validFromDate: day(data.issuedAt),
      validToDate: data.validUntil ? day(data.validUntil) : undefined,
      status: 'A',
    },
    children: [
      {
        name: 'IssuedBy',
        children: [
          { name: 'Organization', attributes: { name: data.issuer.name, certifiedBy: data.issuer.platform } },
        ],
      },
      { name: 'IssuedTo', children: [{ name: 'Person', attributes: { name: data.holderName } }] },
      {
        name: 'CertificateData',
        children: [
          {
            name: 'Achievement',
            attributes: { title: data.achievement.title, domain: data.achievement.domain },
          },
          { name: 'VerificationURL', text: data.verifyUrl },
          {
            name: 'OpenBadgesCredential',
            attributes: { format: 'vc-jwt', specification: 'https://purl.imsglobal.org/spec/ob/v3p0/' },
            text: data.credentialJwt,
          },
        ],
      },
    ],
  });
}
