import { describe, expect, it } from 'vitest';
import {
  certificateNoOfUri,
  DigiLockerRequestError,
  documentUri,
  isoDateOfBirth,
  namesMatch,
  parsePullDocRequest,
  parsePullUriRequest,
  pullUriResponse,
  timestampFresh,
} from './protocol';
import { child, parseXml } from './xml';

const REQUEST =
  '<PullURIRequest ver="1.0" ts="2026-12-02T08:30:00+05:30" txn="t1" orgId="in.x" format="xml"><DocDetails>' +
  '<DocType>VPCER</DocType><DigiLockerId>id</DigiLockerId><FullName>Asha Rao</FullName><DOB>01-01-1990</DOB>' +
  '<UDF1>VP-1</UDF1><UDF2>2026</UDF2><Photo>AAAA</Photo></DocDetails></PullURIRequest>';

describe('DigiLocker messages', () => {
  it('reads a Pull URI request', () => {
    expect(parsePullUriRequest(REQUEST)).toEqual({
      ver: '1.0',
      ts: '2026-12-02T08:30:00+05:30',
      txn: 't1',
      orgId: 'in.x',
      format: 'xml',
      docType: 'VPCER',
      digiLockerId: 'id',
      fullName: 'Asha Rao',
      dob: '01-01-1990',
      udf: { UDF1: 'VP-1', UDF2: '2026' },
    });
    expect(parsePullUriRequest(REQUEST.replace(' format="xml"', '')).format).toBe('pdf');
  });

  it('refuses what is not a request', () => {
    for (const body of [
      REQUEST.replace(' txn="t1"', ''),
      REQUEST.replace(' format="xml"', ' format="docx"'),
      REQUEST.replace('<DocType>VPCER</DocType>', ''),
      '<PullURIRequest ver="1" ts="1" txn="1" orgId="o"/>',
      REQUEST.replaceAll('PullURIRequest', 'Other'),
      '<<<',
    ])
      expect(() => parsePullUriRequest(body), body).toThrow(DigiLockerRequestError);
    expect(() =>
      parsePullDocRequest('<PullDocRequest ver="1" ts="1" txn="1" orgId="o"><DocDetails/></PullDocRequest>'),
    ).toThrow(/URI/);
  });

  it('matches names without case or extra spaces, nothing looser', () => {
    expect(namesMatch('  asha   RAO', 'Asha Rao')).toBe(true);
    expect(namesMatch('Asha\u00a0Rao', 'Asha Rao')).toBe(true);
    expect(namesMatch('A. Rao', 'Asha Rao')).toBe(false);
    expect(namesMatch('Asha Rao Kumar', 'Asha Rao')).toBe(false);
  });

  it('reads DD-MM-YYYY dates of birth (and DD/MM/YYYY), refusing impossible ones', () => {
    expect(isoDateOfBirth('31-12-1990')).toBe('1990-12-31');
    expect(isoDateOfBirth('29/02/2000')).toBe('2000-02-29');
    expect(isoDateOfBirth('29-02-2001')).toBeNull();
    expect(isoDateOfBirth('1990-12-31')).toBeNull();
    expect(isoDateOfBirth('12-31-1990')).toBeNull();
  });

  it('takes timestamps within 15 minutes, in ISO 8601 with an offset or epoch seconds/milliseconds', () => {
    const now = Date.parse('2026-12-02T03:00:00Z');
    expect(timestampFresh('2026-12-02T08:30:00+05:30', now)).toBe(true);
    expect(timestampFresh('2026-12-02T08:44:59+0530', now)).toBe(true);
    expect(timestampFresh('2026-12-02T03:16:00Z', now)).toBe(false);
    expect(timestampFresh('2026-12-02T02:44:00Z', now)).toBe(false);
    expect(timestampFresh(String(now / 1000), now)).toBe(true);
    expect(timestampFresh(String(now), now)).toBe(true);
    expect(timestampFresh('02-12-2026 08:30', now)).toBe(false);
  });

  it('makes and reads URIs {orgId}-{docType}-{certificateNo}', () => {
    const uri = documentUri('in.gov.x', 'VPCER', 'VP-7K3M-Q9TD-2XWV');
    expect(uri).toBe('in.gov.x-VPCER-VP-7K3M-Q9TD-2XWV');
    expect(certificateNoOfUri(uri, 'in.gov.x', 'VPCER')).toBe('VP-7K3M-Q9TD-2XWV');
    expect(certificateNoOfUri(uri, 'in.gov.y', 'VPCER')).toBeNull();
    expect(certificateNoOfUri('in.gov.x-VPCER-', 'in.gov.x', 'VPCER')).toBeNull();
  });

  it("writes a refusal with the specification's ResponseStatus and an empty DocDetails", () => {
    const root = parseXml(pullUriResponse('0', { ts: 'T', txn: 'X' }));
    expect(root.name).toBe('PullURIResponse');
    expect(child(root, 'ResponseStatus')?.attributes).toEqual({ Status: '0', ts: 'T', txn: 'X' });
    expect(child(root, 'DocDetails')?.children).toEqual([]);
  });
});
