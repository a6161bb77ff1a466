/**
 * The platform as a DigiLocker issuer (issue 57, docs/digilocker.md): DigiLocker's side is a
 * double (test/doubles/digilocker.ts) that writes and signs the specification's requests; the
 * answers are read back and checked against the specification's shapes (API Setu "DigiLocker
 * Issuer APIs" 3.0.0: element and attribute names below, from its OpenAPI document).
 */

import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { BlobReader, configure, TextWriter, ZipReader } from '@zip.js/zip.js';
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { auditLog, certificates, users } from '../src/db/schema';
import {
  base64Bytes,
  childOf,
  DIGILOCKER,
  digilockerEnv,
  type El,
  istTimestamp,
  newTxn,
  pullDocXml,
  pullUriXml,
  readXml,
  send,
  sign,
} from './doubles/digilocker';
import { ADULT_BIRTH_DATE, candidateWithCertificate, consent, db, loginAdmin } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';

configure({ useWebWorkers: false });

/** The specification's shapes (components.schemas of apisetu.gov.in/issuer/3.0.0/openapi.yaml). */
const SPEC = {
  PullURIResponse: {
    children: ['ResponseStatus', 'DocDetails'],
    ResponseStatus: { attributes: ['Status', 'ts', 'txn'] },
    DocDetails: [
      'DocType',
      'DigiLockerId',
      'UID',
      'FullName',
      'DOB',
      'UDF1',
      'UDF2',
      'URI',
      'DocContent',
      'DataContent',
    ],
  },
  PullDocResponse: {
    children: ['ResponseStatus', 'DocDetails'],
    ResponseStatus: { attributes: ['Status', 'ts', 'txn'] },
    DocDetails: ['DocContent', 'DataContent'],
  },
  statuses: ['1', '0', '9'],
} as const;

/** Asserts the answer is the specification's `root`, and returns its parts. */
function shaped(xml: string, root: 'PullURIResponse' | 'PullDocResponse') {
  const doc = readXml(xml);
  const spec = SPEC[root];
  expect(doc.name).toBe(root);
  expect(doc.children.map((c) => c.name)).toEqual([...spec.children]);
  const status = childOf(doc, 'ResponseStatus')!;
  for (const attribute of spec.ResponseStatus.attributes) expect(status.attributes).toHaveProperty(attribute);
  expect(SPEC.statuses).toContain(status.attributes.Status);
  const details = childOf(doc, 'DocDetails')!;
  for (const c of details.children) expect(spec.DocDetails as readonly string[]).toContain(c.name);
  const field = (name: string) => childOf(details, name)?.text;
  return { doc, status: status.attributes, details, field };
}

const DOB = ADULT_BIRTH_DATE.split('-').reverse().join('-'); // 1990-01-01 → 01-01-1990

type Holder = Awaited<ReturnType<typeof candidateWithCertificate>>;
let asha: Holder;

beforeAll(async () => {
  asha = await candidateWithCertificate('Asha Rao');
});

const pullUri = (fields: Parameters<typeof pullUriXml>[0], options?: Parameters<typeof send>[2]) =>
  send('/api/digilocker/pull-uri', pullUriXml(fields), options);
const pullDoc = (fields: Parameters<typeof pullDocXml>[0], options?: Parameters<typeof send>[2]) =>
  send('/api/digilocker/pull-doc', pullDocXml(fields), options);

const uriOf = (certificateNo: string) =>
  `${DIGILOCKER.DIGILOCKER_ORG_ID}-${DIGILOCKER.DIGILOCKER_DOC_TYPE}-${certificateNo}`;

async function holderPdf(holder: Holder): Promise<Uint8Array> {
  const res = await call(`/api/me/certificates/${holder.certificateNo}/pdf`, {
    headers: as(holder.candidate),
  });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe('POST /api/digilocker/pull-uri', () => {
  it('finds the certificate by number, name and date of birth, and answers the URI, the PDF and the XML data', async () => {
    const ts = istTimestamp();
    const txn = newTxn();
    const sent = await pullUri({
      ts,
      txn,
      fullName: 'Asha Rao',
      dob: DOB,
      udf1: asha.certificateNo,
      format: 'both',
    });
    expect(sent.status).toBe(200);
    expect(sent.contentType).toContain('application/xml');
    const { status, field } = shaped(sent.text, 'PullURIResponse');
    expect(status).toEqual({ Status: '1', ts, txn });
    expect(field('URI')).toBe(uriOf(asha.certificateNo));
    expect(field('DocType')).toBe(DIGILOCKER.DIGILOCKER_DOC_TYPE);
    expect(field('UDF1')).toBe(asha.certificateNo);
    expect(field('FullName')).toBe('Asha Rao');
    expect(field('DOB')).toBe(DOB);

    // The PDF is the holder's own download, byte for byte.
    const pdf = base64Bytes(field('DocContent')!);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
    expect(pdf).toEqual(await holderPdf(asha));

    // The XML data: holder, achievement, issuer, dates, number, verification URL, the credential.
    const data = readXml(new TextDecoder().decode(base64Bytes(field('DataContent')!)));
    expect(data.name).toBe('Certificate');
    expect(data.attributes).toMatchObject({
      number: asha.certificateNo,
      uri: uriOf(asha.certificateNo),
      status: 'A',
    });
    expect(data.attributes.issueDate).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    const verified = await (await call(`/api/verify/${asha.certificateNo}`)).json<{
      brief: { title: string };
      credential: { jwt: string };
      employer: { name: string };
    }>();
    const by = (name: string) => (el: El) => childOf(el, name)!;
    expect(by('Organization')(by('IssuedBy')(data)).attributes.name).toBe(verified.employer.name);
    expect(by('Person')(by('IssuedTo')(data)).attributes.name).toBe('Asha Rao');
    const certificateData = by('CertificateData')(data);
    expect(by('Achievement')(certificateData).attributes.title).toBe(verified.brief.title);
    expect(by('VerificationURL')(certificateData).text).toMatch(new RegExp(`/verify/${asha.certificateNo}$`));
    expect(by('OpenBadgesCredential')(certificateData).text).toBe(verified.credential.jwt);
    // Nothing beyond what the certificate shows: no email, no date of birth.
    const dataText = new TextDecoder().decode(base64Bytes(field('DataContent')!));
    expect(dataText).not.toContain(asha.candidate.email);
    expect(dataText).not.toContain(ADULT_BIRTH_DATE);
    expect(dataText).not.toContain(DOB);
  });

  it('compares names without case or extra spaces, and reads DD/MM/YYYY as DD-MM-YYYY', async () => {
    const sent = await pullUri({
      fullName: '  asha   RAO ',
      dob: DOB.replaceAll('-', '/'),
      udf1: asha.certificateNo,
    });
    expect(shaped(sent.text, 'PullURIResponse').status.Status).toBe('1');
    // The number as people type it: lower case, spaces for dashes; the URI is the canonical number's.
    const typed = await pullUri({
      fullName: 'Asha Rao',
      dob: DOB,
      udf1: asha.certificateNo.toLowerCase().replaceAll('-', ' '),
    });
    const { status, field } = shaped(typed.text, 'PullURIResponse');
    expect(status.Status).toBe('1');
    expect(field('URI')).toBe(uriOf(asha.certificateNo));
  });

  it('sends the PDF alone without a format, the XML alone for format="xml"', async () => {
    const pdfOnly = shaped(
      (await pullUri({ format: null, fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo })).text,
      'PullURIResponse',
    );
    expect(pdfOnly.field('DocContent')).toBeTruthy();
    expect(pdfOnly.field('DataContent')).toBeUndefined();
    const xmlOnly = shaped(
      (await pullUri({ format: 'xml', fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo })).text,
      'PullURIResponse',
    );
    expect(xmlOnly.field('DataContent')).toBeTruthy();
    expect(xmlOnly.field('DocContent')).toBeUndefined();
  });

  it('gives the same answer for an unknown number, another name and another date of birth', async () => {
    const ts = istTimestamp();
    const distinct = await Promise.all(
      [
        { fullName: 'Asha Rao', dob: DOB, udf1: 'VP-0000-0000-0000' },
        { fullName: 'Asha Roy', dob: DOB, udf1: asha.certificateNo },
        { fullName: 'Asha Rao', dob: '02-01-1990', udf1: asha.certificateNo },
        { fullName: 'Asha Rao', dob: null, udf1: asha.certificateNo },
        { fullName: null, dob: DOB, udf1: asha.certificateNo },
        { fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo, docType: 'OTHER' },
        { fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo, orgId: 'in.other.org' },
        { fullName: 'Asha Rao', dob: DOB },
      ].map(async (f, i) => {
        const sent = await pullUri({ ...f, ts, txn: `mismatch-${i}-${newTxn()}` });
        return { status: sent.status, body: sent.text.replace(/txn="[^"]*"/, 'txn=""') };
      }),
    );
    for (const answer of distinct) {
      expect(answer).toEqual(distinct[0]);
      expect(answer.status).toBe(200);
      const { status, details } = shaped(answer.body, 'PullURIResponse');
      expect(status.Status).toBe('0');
      expect(details.children).toEqual([]);
    }
  });

  it('refuses a missing or wrong x-digilocker-hmac with 401 and Status="0", looking nothing up', async () => {
    const fields = { fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo };
    const body = pullUriXml(fields);
    const missing = await send('/api/digilocker/pull-uri', body, { hmac: null });
    const otherKey = await send('/api/digilocker/pull-uri', body, { hmac: await sign(body, 'another-key') });
    const tampered = await send('/api/digilocker/pull-uri', body.replace('Asha Rao', 'Asha Rae'), {
      hmac: await sign(body),
    });
    const garbage = await send('/api/digilocker/pull-uri', body, { hmac: 'not base64!' });
    for (const refused of [missing, otherKey, tampered, garbage]) {
      expect(refused.status).toBe(401);
      expect(refused.res.headers.get('www-authenticate')).toContain('x-digilocker-hmac');
      const { status, details } = shaped(refused.text, 'PullURIResponse');
      expect(status.Status).toBe('0');
      expect(details.children).toEqual([]);
    }
  });

  it('refuses a timestamp more than 15 minutes off, either way; accepts one within', async () => {
    const fields = { fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo };
    const minutes = (n: number) => istTimestamp(new Date(Date.now() + n * 60_000));
    for (const ts of [minutes(-16), minutes(16), 'yesterday']) {
      const sent = await pullUri({ ...fields, ts });
      expect(sent.status).toBe(401);
      expect(shaped(sent.text, 'PullURIResponse').status).toMatchObject({ Status: '0', ts });
    }
    const within = await pullUri({ ...fields, ts: minutes(-14) });
    expect(shaped(within.text, 'PullURIResponse').status.Status).toBe('1');
    const epoch = await pullUri({ ...fields, ts: String(Math.floor(Date.now() / 1000)) });
    expect(shaped(epoch.text, 'PullURIResponse').status.Status).toBe('1');
  });

  it('answers a repeated transaction id with the same answer, and refuses its reuse for another request (409)', async () => {
    const txn = newTxn();
    const ts = istTimestamp();
    const first = await pullUri({ txn, ts, fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo });
    const again = await pullUri({ txn, ts, fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo });
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    const refusedTxn = newTxn();
    const refused = await pullUri({
      txn: refusedTxn,
      ts,
      fullName: 'Someone Else',
      dob: DOB,
      udf1: asha.certificateNo,
    });
    const refusedAgain = await pullUri({
      txn: refusedTxn,
      ts,
      fullName: 'Someone Else',
      dob: DOB,
      udf1: asha.certificateNo,
    });
    expect(refusedAgain.text).toBe(refused.text);

    const reused = await pullUri({ txn, ts, fullName: 'Asha Rao', dob: DOB, udf1: 'VP-0000-0000-0000' });
    expect(reused.status).toBe(409);
    expect(shaped(reused.text, 'PullURIResponse').status).toEqual({ Status: '0', ts, txn });
  });

  it('refuses XML it will not parse: a DOCTYPE (entities), deep nesting, not XML, a missing attribute (400)', async () => {
    const valid = pullUriXml({ fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo });
    const bodies = [
      valid.replace(
        '<PullURIRequest',
        '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>\n<PullURIRequest',
      ),
      valid.replace('<DocDetails>', `<DocDetails>${'<x>'.repeat(20)}${'</x>'.repeat(20)}`),
      valid.replace('Asha Rao', '&b;'),
      'not xml at all',
      valid.replace(/ txn="[^"]*"/, ''),
      valid.replace('<PullURIRequest', '<PullDocRequest').replace('</PullURIRequest>', '</PullDocRequest>'),
    ];
    for (const body of bodies) {
      const sent = await send('/api/digilocker/pull-uri', body);
      await expectProblem(sent.res, 400, 'malformed-xml');
    }
  });

  it('answers 503 not-configured while any of the three settings is missing', async () => {
    await expectProblem(
      await call('/api/digilocker/pull-uri', {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: pullUriXml({ udf1: 'x' }),
      }),
      503,
      'not-configured',
    );
    for (const missing of ['DIGILOCKER_ORG_ID', 'DIGILOCKER_DOC_TYPE', 'DIGILOCKER_API_KEY']) {
      const sent = await pullUri({ udf1: asha.certificateNo }, { envOverrides: { [missing]: '' } });
      await expectProblem(sent.res, 503, 'not-configured');
    }
  });
});

describe('POST /api/digilocker/pull-doc', () => {
  it('gives the document behind a URI it issued, as the format asks', async () => {
    const ts = istTimestamp();
    const txn = newTxn();
    const sent = await pullDoc({ ts, txn, uri: uriOf(asha.certificateNo), format: 'both' });
    expect(sent.status).toBe(200);
    const { status, field } = shaped(sent.text, 'PullDocResponse');
    expect(status).toEqual({ Status: '1', ts, txn });
    expect(base64Bytes(field('DocContent')!)).toEqual(await holderPdf(asha));
    expect(readXml(new TextDecoder().decode(base64Bytes(field('DataContent')!))).name).toBe('Certificate');

    const pdfOnly = shaped(
      (await pullDoc({ uri: uriOf(asha.certificateNo), format: null })).text,
      'PullDocResponse',
    );
    expect(pdfOnly.field('DocContent')).toBeTruthy();
    expect(pdfOnly.field('DataContent')).toBeUndefined();
  });

  it('refuses (Status="0") a URI not of this issuer or document type, an unknown number, or a name that is not the holder’s', async () => {
    for (const fields of [
      { uri: `in.other.org-${DIGILOCKER.DIGILOCKER_DOC_TYPE}-${asha.certificateNo}` },
      { uri: `${DIGILOCKER.DIGILOCKER_ORG_ID}-OTHER-${asha.certificateNo}` },
      { uri: uriOf('VP-0000-0000-0000') },
      { uri: uriOf(asha.certificateNo), fullName: 'Someone Else', dob: DOB },
    ]) {
      const sent = await pullDoc(fields);
      expect(sent.status).toBe(200);
      const { status, details } = shaped(sent.text, 'PullDocResponse');
      expect(status.Status).toBe('0');
      expect(details.children).toEqual([]);
    }
    const unsigned = await send('/api/digilocker/pull-doc', pullDocXml({ uri: uriOf(asha.certificateNo) }), {
      hmac: null,
    });
    expect(unsigned.status).toBe(401);
    expect(shaped(unsigned.text, 'PullDocResponse').status.Status).toBe('0');
    const stale = await pullDoc({
      uri: uriOf(asha.certificateNo),
      ts: istTimestamp(new Date(Date.now() - 3_600_000)),
    });
    expect(stale.status).toBe(401);
  });
});

describe('what stops DigiLocker, at the moment it stops verification', () => {
  const found = async (holder: Holder, name: string) => {
    const uri = shaped(
      (await pullUri({ fullName: name, dob: DOB, udf1: holder.certificateNo })).text,
      'PullURIResponse',
    ).status.Status;
    const doc = shaped((await pullDoc({ uri: uriOf(holder.certificateNo) })).text, 'PullDocResponse').status
      .Status;
    return { uri, doc };
  };

  it("the holder's switch: off refuses both requests, on gives again; only the holder may turn it", async () => {
    const ravi = await candidateWithCertificate('Ravi Kumar');
    expect(await found(ravi, 'Ravi Kumar')).toEqual({ uri: '1', doc: '1' });
    const path = `/api/me/certificates/${ravi.certificateNo}/digilocker`;
    const off = await call(path, jsonInit('PATCH', { enabled: false }, as(ravi.candidate)));
    expect(off.status).toBe(200);
    expect(await off.json()).toEqual({ certificateNo: ravi.certificateNo, enabled: false, digilocker: null });
    expect(await found(ravi, 'Ravi Kumar')).toEqual({ uri: '0', doc: '0' });
    // Verification itself is unchanged.
    expect((await (await call(`/api/verify/${ravi.certificateNo}`)).json<{ valid: boolean }>()).valid).toBe(
      true,
    );
    await expectProblem(
      await call(path, jsonInit('PATCH', { enabled: false }, as(asha.candidate))),
      404,
      'not-found',
    );
    expect((await call(path, jsonInit('PATCH', { enabled: true }, as(ravi.candidate)))).status).toBe(200);
    expect(await found(ravi, 'Ravi Kumar')).toEqual({ uri: '1', doc: '1' });
    const [row] = await db()
      .select({ enabled: certificates.digilockerEnabled })
      .from(certificates)
      .where(eq(certificates.certificateNo, ravi.certificateNo));
    expect(row?.enabled).toBe(true);
    const switched = await db()
      .select({ action: auditLog.action, actorId: auditLog.actorId })
      .from(auditLog)
      .where(eq(auditLog.actorId, ravi.candidate.id));
    expect(switched.map((a) => a.action)).toEqual(
      expect.arrayContaining(['certificate.digilocker_disabled', 'certificate.digilocker_enabled']),
    );

    // Withdrawing the consent to public verification stops DigiLocker too; granting it again restores it.
    await consent(ravi.candidate, 'public_verification', 'revoke');
    expect(await found(ravi, 'Ravi Kumar')).toEqual({ uri: '0', doc: '0' });
    await consent(ravi.candidate, 'public_verification', 'grant');
    expect(await found(ravi, 'Ravi Kumar')).toEqual({ uri: '1', doc: '1' });
  });

  it('revocation', async () => {
    const meera = await candidateWithCertificate('Meera Iyer');
    const txn = newTxn();
    const ts = istTimestamp();
    const before = await pullUri({ txn, ts, fullName: 'Meera Iyer', dob: DOB, udf1: meera.certificateNo });
    expect(shaped(before.text, 'PullURIResponse').status.Status).toBe('1');
    const admin = await loginAdmin();
    const revoked = await call(
      `/api/certificates/${meera.certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Issued in error' }, as(admin)),
    );
    expect(revoked.status).toBe(200);
    expect((await (await call(`/api/verify/${meera.certificateNo}`)).json<{ status: string }>()).status).toBe(
      'revoked',
    );
    expect(await found(meera, 'Meera Iyer')).toEqual({ uri: '0', doc: '0' });
    // Even a repeat of the transaction that got it before.
    const replay = await pullUri({ txn, ts, fullName: 'Meera Iyer', dob: DOB, udf1: meera.certificateNo });
    expect(shaped(replay.text, 'PullURIResponse').status.Status).toBe('0');
  });

  it('erasure, from the moment it is asked', async () => {
    const arjun = await candidateWithCertificate('Arjun Das');
    expect(await found(arjun, 'Arjun Das')).toEqual({ uri: '1', doc: '1' });
    const erased = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(arjun.candidate) });
    expect(erased.status).toBe(202);
    expect((await call(`/api/verify/${arjun.certificateNo}`)).status).toBe(404);
    expect(await found(arjun, 'Arjun Das')).toEqual({ uri: '0', doc: '0' });
  });

  it('a holder with no date of birth on record is never matched', async () => {
    const old = await candidateWithCertificate('Old Account');
    await db().update(users).set({ dateOfBirth: null }).where(eq(users.id, old.candidate.id));
    expect((await found(old, 'Old Account')).uri).toBe('0');
  });
});

describe('audit and the holder’s side', () => {
  it('audits every request about a certificate, and the holder finds them in their access export', async () => {
    const sita = await candidateWithCertificate('Sita Devi');
    await pullUri({ fullName: 'Sita Devi', dob: DOB, udf1: sita.certificateNo });
    await pullUri({ fullName: 'Not Sita', dob: DOB, udf1: sita.certificateNo });
    await pullDoc({ uri: uriOf(sita.certificateNo) });
    const [cert] = await db()
      .select({ id: certificates.id })
      .from(certificates)
      .where(eq(certificates.certificateNo, sita.certificateNo));
    const entries = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'certificate'), eq(auditLog.targetId, cert!.id)));
    const digilocker = entries.filter((e) => e.action.startsWith('digilocker.'));
    expect(digilocker.map((e) => `${e.action} ${(e.details as { outcome: string }).outcome}`).sort()).toEqual(
      ['digilocker.pull_doc issued', 'digilocker.pull_uri issued', 'digilocker.pull_uri not_found'],
    );
    // The stranger's request names no DigiLocker account (theirs is not the holder's data to keep).
    const stranger = digilocker.find((e) => (e.details as { outcome: string }).outcome === 'not_found');
    expect(JSON.stringify(stranger?.details)).not.toContain('digiLockerId');
    expect(JSON.stringify(stranger?.details)).not.toContain('Not Sita');

    const res = await call('/api/dsr/access', { headers: as(sita.candidate) });
    expect(res.status).toBe(200);
    const reader = new ZipReader(new BlobReader(new Blob([await res.arrayBuffer()])));
    const entry = (await reader.getEntries()).find((e) => e.filename === 'audit-log.json');
    const exported = JSON.parse(
      await (entry as { getData(w: TextWriter): Promise<string> }).getData(new TextWriter()),
    ) as { action: string }[];
    expect(exported.filter((e) => e.action.startsWith('digilocker.')).length).toBe(3);
    // recipients.json names DigiLocker for each document given (not for the stranger's refused request).
    const recipientsEntry = (await reader.getEntries()).find((e) => e.filename === 'recipients.json');
    const recipients = JSON.parse(
      await (recipientsEntry as { getData(w: TextWriter): Promise<string> }).getData(new TextWriter()),
    ) as { sharedWith: { party: string; kind: string; what: string }[] };
    const given = recipients.sharedWith.filter((r) => r.kind === 'digilocker');
    expect(given).toHaveLength(2);
    expect(given[0]?.party).toContain('DigiLocker');
    expect(given.map((g) => g.what).join(' ')).toContain(sita.certificateNo);

    // And in their activity (GET /api/me/digilocker/activity), newest first.
    const activity = await (await call('/api/me/digilocker/activity', { headers: as(sita.candidate) })).json<{
      items: { request: string; outcome: string; given: boolean; certificateNo: string }[];
    }>();
    expect(activity.items.map((a) => `${a.request} ${a.outcome} ${a.given}`).sort()).toEqual([
      'pull_doc issued true',
      'pull_uri issued true',
      'pull_uri not_found false',
    ]);
    expect(activity.items.every((a) => a.certificateNo === sita.certificateNo)).toBe(true);
    const others = await (await call('/api/me/digilocker/activity', { headers: as(asha.candidate) })).json<{
      items: { certificateNo: string }[];
    }>();
    expect(others.items.some((a) => a.certificateNo === sita.certificateNo)).toBe(false);
  });

  it('audits refusals that name no certificate (a bad HMAC, an unknown number)', async () => {
    // (Entries about an erased holder have lost their details: hence `?.`.)
    const outcomesOf = async (txn: string) =>
      (await db().select().from(auditLog).where(eq(auditLog.action, 'digilocker.pull_uri')))
        .filter((e) => (e.details as { txn?: string } | null)?.txn === txn)
        .map((e) => [e.targetId, (e.details as { outcome: string }).outcome]);
    const txn = newTxn();
    await pullUri({ txn, fullName: 'X', dob: DOB, udf1: asha.certificateNo }, { hmac: null });
    expect(await outcomesOf(txn)).toEqual([[null, 'refused_hmac']]);
    const unknownTxn = newTxn();
    await pullUri({ txn: unknownTxn, fullName: 'X', dob: DOB, udf1: 'VP-0000-0000-0000' });
    expect(await outcomesOf(unknownTxn)).toEqual([[null, 'not_found']]);
  });

  it('GET /api/me/certificates says how to fetch each certificate into DigiLocker (null when not an issuer)', async () => {
    const listed = await call('/api/me/certificates', { headers: as(asha.candidate) });
    const body = await listed.json<{ items: { certificateNo: string; digilocker: unknown }[] }>();
    // The test Worker's own settings are wrangler.toml's: empty, so not an issuer.
    expect(body.items.find((i) => i.certificateNo === asha.certificateNo)?.digilocker).toBeNull();

    const { holderCertificate } = await import('../src/services/certificates');
    const { digilockerHolderView } = await import('../src/services/digilocker/holder');
    const row = await holderCertificate(db(), asha.certificateNo);
    expect(digilockerHolderView(row!, DIGILOCKER, true)).toEqual({
      enabled: true,
      available: true,
      reason: null,
      documentType: 'VPCER',
      certificateNumber: asha.certificateNo,
      issuerId: 'in.example.vp',
      uri: uriOf(asha.certificateNo),
    });
    expect(digilockerHolderView(row!, DIGILOCKER, false)?.reason).toBe('no_public_verification_consent');
    expect(digilockerHolderView({ ...row!, digilockerEnabled: false }, DIGILOCKER, true)?.reason).toBe(
      'disabled',
    );
    expect(digilockerHolderView({ ...row!, status: 'revoked' }, DIGILOCKER, true)?.reason).toBe('not_valid');
    expect(digilockerHolderView(row!, {}, true)).toBeNull();
  });

  it('GET /api/health says whether DigiLocker is configured', async () => {
    const health = await (await call('/api/health')).json<{
      checks: { digilocker: { configured: boolean; status: string } };
    }>();
    expect(health.checks.digilocker).toMatchObject({ configured: false, status: 'ok' });
    const ctx = createExecutionContext();
    const configured = await app.fetch(new Request('http://localhost:8787/api/health'), digilockerEnv(), ctx);
    await waitOnExecutionContext(ctx);
    const body = await configured.json<{ checks: { digilocker: { configured: boolean } } }>();
    expect(body.checks.digilocker.configured).toBe(true);
    expect(JSON.stringify(body)).not.toContain(DIGILOCKER.DIGILOCKER_API_KEY);
  });
});

describe('date of birth: recorded at signup, correctable (PATCH /api/dsr/correction)', () => {
  const correct = (account: Holder['candidate'], body: unknown) =>
    call('/api/dsr/correction', jsonInit('PATCH', body, as(account)));

  it('records one on an account that had none, and DigiLocker matches on it from then on', async () => {
    const old = await candidateWithCertificate('Kiran Shah');
    await db().update(users).set({ dateOfBirth: null }).where(eq(users.id, old.candidate.id));
    const match = async (dob: string) =>
      shaped(
        (await pullUri({ fullName: 'Kiran Shah', dob, udf1: old.certificateNo })).text,
        'PullURIResponse',
      ).status.Status;
    expect(await match('15-08-1985')).toBe('0');
    const res = await correct(old.candidate, { dateOfBirth: '1985-08-15' });
    expect(res.status).toBe(200);
    const body = await res.json<{ profile: { dateOfBirth: string }; request: { kind: string } }>();
    expect(body.profile.dateOfBirth).toBe('1985-08-15');
    expect(body.request.kind).toBe('correction');
    expect(await match('15-08-1985')).toBe('1');
    // Corrected again (an adult's date to another adult's): the old one no longer matches.
    expect((await correct(old.candidate, { dateOfBirth: '1985-08-16' })).status).toBe(200);
    expect(await match('15-08-1985')).toBe('0');
    expect(await match('16-08-1985')).toBe('1');
    const audited = await db()
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'dsr.correction'), eq(auditLog.targetId, old.candidate.id)));
    expect(audited.map((a) => a.details)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ before: { dateOfBirth: null }, after: { dateOfBirth: '1985-08-15' } }),
      ]),
    );
  });

  it('refuses a date that would make an adult a child, a date in the future, and a non-date (422)', async () => {
    const thisYear = new Date().getUTCFullYear();
    for (const dateOfBirth of [
      `${thisYear - 5}-01-01`,
      `${thisYear + 1}-01-01`,
      '15-08-1985',
      '1985-02-30',
    ]) {
      const refused = await expectProblem(
        await correct(asha.candidate, { dateOfBirth }),
        422,
        'validation-failed',
      );
      expect(refused.errors?.[0]?.pointer).toBe('#/dateOfBirth');
    }
    const me = await (await call('/api/me', { headers: as(asha.candidate) })).json<{ dateOfBirth: string }>();
    expect(me.dateOfBirth).toBe(ADULT_BIRTH_DATE);
  });
});

describe('DPDP: DigiLocker named as a recipient', () => {
  it('in every consent notice, in English and in Hindi', async () => {
    type Notice = { language: string; recipients: { name: string; data: string; when: string }[] };
    const en = await (await call('/api/consent/notices/v2')).json<Notice>();
    expect(en.recipients[0]?.name).toContain('DigiLocker');
    expect(en.recipients[0]?.when).toContain('public_verification');
    const hi = await (await call('/api/consent/notices/v2?lang=hi')).json<Notice>();
    expect(hi.language).toBe('hi');
    expect(hi.recipients[0]?.name).toContain('डिजिलॉकर');
  });
});

describe('hostile bodies, signed with the right key', () => {
  it('never a 5xx: XML answers or a malformed-xml problem, whatever the bytes', async () => {
    const valid = pullUriXml({ fullName: 'Asha Rao', dob: DOB, udf1: asha.certificateNo });
    const mutated = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ maxLength: 200, unit: 'grapheme' }),
      fc
        .tuple(fc.nat(valid.length), fc.nat(40), fc.string({ maxLength: 30 }))
        .map(([at, cut, insert]) => valid.slice(0, at) + insert + valid.slice(at + cut)),
      fc.constantFrom('<a>'.repeat(5000), `<r a="${'&amp;'.repeat(10000)}"/>`, '\u0000', valid.repeat(3)),
    );
    await fc.assert(
      fc.asyncProperty(mutated, fc.boolean(), async (body, doc) => {
        const sent = await send(doc ? '/api/digilocker/pull-doc' : '/api/digilocker/pull-uri', body);
        expect(sent.status).toBeLessThan(500);
        if (sent.status === 400) expect(sent.contentType).toBe('application/problem+json');
        else expect(sent.contentType).toContain('application/xml');
      }),
      { numRuns: 150 },
    );
  });
});
