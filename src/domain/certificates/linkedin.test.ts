import { describe, expect, it } from 'vitest';
import { linkedInAddToProfileUrl } from './linkedin';

const cert = {
  name: 'Build a REST API for a task tracker',
  organisationName: 'Acme Tools Pvt Ltd & Co',
  issuedAt: new Date('2026-01-31T23:30:00Z'),
  certificateNo: 'VP-7K3M-Q9TD-2XWV',
  verifyUrl: 'https://api.example.com/verify/VP-7K3M-Q9TD-2XWV',
};

describe('linkedInAddToProfileUrl', () => {
  it('fills in the certification: name, organisation, issue month (UTC), verify URL and number', () => {
    const url = new URL(linkedInAddToProfileUrl(cert));
    expect(url.origin + url.pathname).toBe('https://www.linkedin.com/profile/add');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: 'Build a REST API for a task tracker',
      organizationName: 'Acme Tools Pvt Ltd & Co',
      issueYear: '2026',
      issueMonth: '1',
      certUrl: 'https://api.example.com/verify/VP-7K3M-Q9TD-2XWV',
      certId: 'VP-7K3M-Q9TD-2XWV',
    });
    // Encoded, not spliced: the ampersand in the name cannot start another parameter.
    expect(linkedInAddToProfileUrl(cert)).toContain('organizationName=Acme+Tools+Pvt+Ltd+%26+Co');
  });

  it('uses the LinkedIn company id instead of the name when there is one, and adds an expiry', () => {
    const url = new URL(
      linkedInAddToProfileUrl({
        ...cert,
        organisationLinkedInId: '1337',
        expiresAt: new Date('2028-12-01T00:00:00Z'),
      }),
    );
    expect(url.searchParams.get('organizationId')).toBe('1337');
    expect(url.searchParams.has('organizationName')).toBe(false);
    expect(url.searchParams.get('expirationYear')).toBe('2028');
    expect(url.searchParams.get('expirationMonth')).toBe('12');
  });

  it('ignores a company id that is not numeric', () => {
    const url = new URL(linkedInAddToProfileUrl({ ...cert, organisationLinkedInId: 'acme' }));
    expect(url.searchParams.has('organizationId')).toBe(false);
    expect(url.searchParams.get('organizationName')).toBe(cert.organisationName);
  });
});
