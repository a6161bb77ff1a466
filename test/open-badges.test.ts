/**
 * Certificates as the Open Badges 3.0 ecosystem checks them, from the outside: a verifier that
 * knows nothing but the credential follows what it names (`kid` URL → JWK, `issuer.id` →
 * Profile, achievement id, `credentialStatus` → Bitstring Status List), verifies with `jose`,
 * validates against the official 1EdTech JSON Schema (test/fixtures/ob3) and decodes the status
 * list itself (fflate + bit arithmetic), before and after a revocation.
 */

import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { Validator } from '@cfworker/json-schema';
import { eq } from 'drizzle-orm';
import { gunzipSync } from 'fflate';
import {
  base64url,
  calculateJwkThumbprint,
  compactVerify,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from 'jose';
import { describe, expect, it } from 'vitest';
import { app } from '../src/app';
import achievementCredentialSchema from '../src/assets/ob3/achievementcredential.json';
import { certificates, credentialStatuses, users } from '../src/db/schema';
import { verifyCredential } from '../src/domain/certificates/credential';
import { buildVerification } from '../src/services/certificates';
import { forgetVerifications } from '../src/services/verification-memory';
import { openConfirmationLink } from './confirm';
import profileSchema from './fixtures/ob3/profile.json';
import {
  ALL_CONSENTS,
  candidateWithCertificate,
  consent,
  db,
  passEveryMilestone,
  publishedBrief,
  reviewOrganisation,
  signup,
  verifyOrganisation,
} from './harness';
import { as, BASE, call, expectProblem, jsonInit } from './helpers';
import { assertDocumentedResponse } from './response-validation';

type Payload = Record<string, unknown> & {
  iss: string;
  sub: string;
  issuer: { id: string; name: string };
  credentialSubject: { id: string; achievement: { id: string }; result?: unknown[] };
  credentialStatus: {
    statusListCredential: string;
    statusListIndex: string;
    statusPurpose: string;
    type: string;
  };
  validUntil?: string;
  exp?: number;
};

const credentialValidator = new Validator(achievementCredentialSchema as object, '2019-09', false);
const profileValidator = new Validator(profileSchema as object, '2019-09', false);

/** Every credential a test sees is checked against the official schema. */
function expectSchemaValid(validator: Validator, document: unknown) {
  const result = validator.validate(document);
  expect(result.errors.map((e) => `${e.instanceLocation}: ${e.error}`)).toEqual([]);
  expect(result.valid).toBe(true);
}

function decodeSegment(segment: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(base64url.decode(segment)));
}

/** A URL the credential names, fetched from this Worker (it must be under PUBLIC_BASE_URL). */
async function dereference(url: string, init: RequestInit = {}): Promise<Response> {
  expect(url.startsWith(`${env.PUBLIC_BASE_URL}/`)).toBe(true);
  const res = await call(url.slice(env.PUBLIC_BASE_URL.length), init);
  expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
  return res;
}

/** Verifies a compact JWS with jose, using only its `kid` URL. */
async function verifyByKidUrl(jwt: string) {
  const header = decodeSegment(jwt.split('.')[0]!) as { alg: string; kid: string; typ: string };
  const res = await dereference(header.kid);
  expect(res.status).toBe(200);
  const jwk = await res.json<JWK & { kid: string }>();
  expect(jwk.kid).toBe(header.kid);
  expect(jwk).not.toHaveProperty('d');
  const key = await importJWK(jwk, header.alg);
  return { header, jwk, ...(await jwtVerify(jwt, key, { algorithms: [header.alg], typ: 'JWT' })) };
}

/** The bit at `index` of a status list, decoded independently: index 0 is the MSB of byte 0. */
async function statusBit(entry: Payload['credentialStatus']): Promise<number> {
  const res = await dereference(entry.statusListCredential);
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toBe('application/vc+jwt');
  const jwt = await res.text();
  const { payload } = await verifyByKidUrl(jwt);
  const subject = payload.credentialSubject as { type: string; statusPurpose: string; encodedList: string };
  expect(payload.type).toContain('BitstringStatusListCredential');
  expect(subject).toMatchObject({ type: 'BitstringStatusList', statusPurpose: entry.statusPurpose });
  expect(subject.encodedList.startsWith('u')).toBe(true);
  const bits = gunzipSync(base64url.decode(subject.encodedList.slice(1)));
  expect(bits.length * 8).toBeGreaterThanOrEqual(131_072);
  const index = Number(entry.statusListIndex);
  return ((bits[index >> 3] ?? 0) >> (7 - (index % 8))) & 1;
}

async function credentialOf(certificateNo: string): Promise<string> {
  const res = await call(`/api/verify/${certificateNo}`);
  expect(res.status).toBe(200);
  const body = await res.json<{ credential: { jwt: string } | null }>();
  if (!body.credential) throw new Error('no credential');
  return body.credential.jwt;
}

describe('results the organisation signs', () => {
  it('an employer who passes work the AI failed signs their rating, not the AI levels they overruled', async () => {
    const employer = await signup('employer', 'Recruiter', `Overrule Org ${crypto.randomUUID().slice(0, 6)}`);
    await verifyOrganisation(employer);
    const candidate = await signup('candidate', 'Overruled Candidate');
    for (const purpose of ALL_CONSENTS) await consent(candidate, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1 });
    let certificateNo: string | undefined;
    for (const milestone of brief.playbook.milestones) {
      const submitted = await call(
        '/api/submissions',
        jsonInit('POST', { milestoneId: milestone.id, text: 'lorem ipsum dolor sit amet' }, as(candidate)),
      );
      expect(submitted.status).toBe(201);
      const { evaluationId } = await submitted.json<{ evaluationId: string }>();
      const rated = await call(
        `/api/evaluations/${evaluationId}/employer-rating`,
        jsonInit('POST', { score: 5, verdict: 'pass' }, as(employer)),
      );
      expect(rated.status).toBe(201);
      const body = await rated.json<{
        evaluation: { ai: { verdict: string | null } | null };
        certificate: { certificateNo: string } | null;
      }>();
      expect(body.evaluation.ai?.verdict).toBe('fail'); // the AI failed it; the employer passed it
      certificateNo = body.certificate?.certificateNo ?? certificateNo;
    }
    const verified = await (await call(`/api/verify/${certificateNo}`)).json<{
      credential: { jwt: string };
    }>();
    const payload = JSON.parse(
      atob(verified.credential.jwt.split('.')[1]!.replaceAll('-', '+').replaceAll('_', '/')),
    ) as { credentialSubject: { result?: { achievedLevel?: string; value?: string }[] } };
    const results = payload.credentialSubject.result ?? [];
    expect(results.filter((r) => r.achievedLevel)).toEqual([]);
    expect(results.some((r) => r.value === '5')).toBe(true);
  });
});

describe('a freshly issued credential, checked only through what it names', () => {
  it('verifies with jose via the kid URL, resolves issuer and achievement, validates against the official schema, and shows its revocation in the status list', async () => {
    const { employer, candidate, certificateNo } = await candidateWithCertificate('Meera Iyer', {
      employerName: 'Lotus Labs',
    });
    const jwt = await credentialOf(certificateNo);

    const { header, jwk, payload: verified } = await verifyByKidUrl(jwt);
    expect(header).toEqual({
      alg: 'ES256',
      kid: expect.stringMatching(/\/ob\/keys\/[A-Za-z0-9_-]{43}$/),
      typ: 'JWT',
    });
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(header.kid.endsWith(await calculateJwkThumbprint(jwk))).toBe(true);
    const payload = verified as unknown as Payload;
    expectSchemaValid(credentialValidator, payload);
    expect(payload['@context']).toEqual([
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
      // Only what the VC 2.0 context lacks: it defines (and protects) iss, sub, nbf, iat, exp.
      {
        jti: { '@id': 'https://www.iana.org/assignments/jwt#jti', '@type': '@id' },
        '1EdTechJsonSchemaValidator2019':
          'https://purl.imsglobal.org/spec/vccs/v1p0/context.json#1EdTechJsonSchemaValidator2019',
      },
    ]);

    // The subject is the holder's own opaque id: not the credential's, no name, no email.
    expect(payload.sub).toBe(payload.credentialSubject.id);
    expect(payload.credentialSubject.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(payload.credentialSubject.id).not.toBe(payload.id);
    const [holder] = await db().select().from(users).where(eq(users.id, candidate.id));
    expect(payload.credentialSubject.id).toBe(`urn:uuid:${holder?.credentialSubjectId}`);
    expect(JSON.stringify(payload)).not.toContain('Meera');
    expect(JSON.stringify(payload)).not.toContain(candidate.email);
    expect(payload.credentialSubject.result?.length).toBeGreaterThan(0);
    expect(payload.evidence).toEqual([
      expect.objectContaining({ id: `${env.PUBLIC_BASE_URL}/verify/${certificateNo}` }),
    ]);

    // issuer.id → the organisation's did:web (decision 0350) → its DID document, which names
    // the organisation's Profile (alsoKnownAs): its current name and verification state.
    const host = encodeURIComponent(new URL(env.PUBLIC_BASE_URL).host);
    expect(payload.issuer.id).toMatch(new RegExp(`^did:web:${host}:issuers:[0-9a-f-]{36}$`));
    const didRes = await dereference(
      `${env.PUBLIC_BASE_URL}/${payload.issuer.id.split(':').slice(3).join('/')}/did.json`,
    );
    expect(didRes.status).toBe(200);
    const didDocument = await didRes.json<{ id: string; alsoKnownAs: string[] }>();
    expect(didDocument.id).toBe(payload.issuer.id);
    const profileUrl = didDocument.alsoKnownAs[0]!;
    const profileRes = await dereference(profileUrl);
    expect(profileRes.status).toBe(200);
    expect(profileRes.headers.get('Cache-Control')).toMatch(/public, max-age=\d+/);
    const profile = await profileRes.json<{
      id: string;
      type: string[];
      name: string;
      verification: { state: string };
    }>();
    expectSchemaValid(profileValidator, profile);
    expect(profile).toMatchObject({ id: profileUrl, type: ['Profile'], name: 'Lotus Labs' });
    expect(profile.verification.state).toBe('verified');
    expect(payload.issuer.name).toBe('Lotus Labs');

    // The achievement id → its public description with the rubric.
    const achievementRes = await dereference(payload.credentialSubject.achievement.id);
    expect(achievementRes.status).toBe(200);
    const achievement = await achievementRes.json<{
      id: string;
      criteria: { narrative: string };
      resultDescription: { id: string }[];
    }>();
    expect(achievement.id).toBe(payload.credentialSubject.achievement.id);
    expect(achievement.criteria.narrative).toContain('final milestone');
    expect(achievement.resultDescription.length).toBeGreaterThan(1);

    // The status list: bit 0 now, 1 after the revocation.
    expect(payload.credentialStatus).toMatchObject({
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
    });
    expect(await statusBit(payload.credentialStatus)).toBe(0);
    const revoked = await call(
      `/api/certificates/${certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Plagiarism found on review' }, as(employer)),
    );
    expect(revoked.status).toBe(200);
    expect(await statusBit(payload.credentialStatus)).toBe(1);
  });

  it('allocates a different status index to every credential, and serves the list with ETag, 304 and caching', async () => {
    const a = await candidateWithCertificate('Kiran A');
    const b = await candidateWithCertificate('Kiran B');
    const [pa, pb] = await Promise.all(
      [a, b].map(async (c) => decodeSegment((await credentialOf(c.certificateNo)).split('.')[1]!) as Payload),
    );
    expect(pa!.credentialStatus.statusListIndex).not.toBe(pb!.credentialStatus.statusListIndex);
    const url = pa!.credentialStatus.statusListCredential;
    const first = await dereference(url);
    const etag = first.headers.get('ETag');
    expect(etag).toBeTruthy();
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=300');
    const again = await dereference(url, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    // A revocation changes the list, so the old ETag no longer matches.
    await call(
      `/api/certificates/${a.certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Withdrawn by test' }, as(a.employer)),
    );
    expect((await dereference(url, { headers: { 'If-None-Match': etag! } })).status).toBe(200);
  });

  it('sets the bit of a credential whose certificate was erased (deleted), so it stops verifying', async () => {
    const { certificateNo } = await candidateWithCertificate('Ravi Erased');
    const payload = decodeSegment((await credentialOf(certificateNo)).split('.')[1]!) as Payload;
    expect(await statusBit(payload.credentialStatus)).toBe(0);
    await db().delete(certificates).where(eq(certificates.certificateNo, certificateNo));
    await forgetVerifications(env, [certificateNo]);
    expect(await statusBit(payload.credentialStatus)).toBe(1);
    const [row] = await db()
      .select()
      .from(credentialStatuses)
      .where(eq(credentialStatuses.statusIndex, Number(payload.credentialStatus.statusListIndex)));
    // The index stays taken (never reused), pointing at nothing.
    expect(row).toMatchObject({ state: 'bound', certificateId: null });
  });
});

describe('the holder’s identifier (asked for, off by default)', () => {
  it('adds a salted email hash when the holder asks, re-signing what they hold; drops it when they stop; follows an email correction', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Divya Menon');
    const subjectOf = async () => {
      const jwt = await credentialOf(certificateNo);
      const { payload } = await verifyByKidUrl(jwt);
      expectSchemaValid(credentialValidator, payload);
      return payload.credentialSubject as { identifier?: Record<string, unknown>[] };
    };
    expect((await subjectOf()).identifier).toBeUndefined();
    const issuedAt = (
      await db().select().from(certificates).where(eq(certificates.certificateNo, certificateNo))
    )[0]!.issuedAt;

    const set = (enabled: boolean) =>
      call('/api/me/credential-identifier', jsonInit('PUT', { enabled }, as(candidate)));
    const on = await set(true);
    expect(on.status).toBe(200);
    expect(await on.json()).toEqual({ enabled: true, included: true, note: null, resigned: [certificateNo] });
    const [identifier] = (await subjectOf()).identifier ?? [];
    expect(identifier).toMatchObject({ type: 'IdentityObject', identityType: 'emailAddress', hashed: true });
    const salt = String(identifier!.salt);
    const digest = await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(`${candidate.email}${salt}`),
    );
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(identifier!.identityHash).toBe(`sha256$${hex}`);
    expect(JSON.stringify(identifier)).not.toContain(candidate.email);
    // Re-signing keeps what was attested.
    const [row] = await db().select().from(certificates).where(eq(certificates.certificateNo, certificateNo));
    expect(row!.issuedAt).toEqual(issuedAt);

    // A corrected email: the hash follows it, with the same salt, once the new address is
    // confirmed through the link mailed to it (until then the old address stands).
    const email = `divya-${crypto.randomUUID().slice(0, 8)}@example.test`;
    expect((await call('/api/dsr/correction', jsonInit('PATCH', { email }, as(candidate)))).status).toBe(200);
    expect((await subjectOf()).identifier?.[0]).toMatchObject({ identityHash: `sha256$${hex}`, salt });
    expect((await openConfirmationLink(candidate.id, 'change')).status).toBe(200);
    const [after] = (await subjectOf()).identifier ?? [];
    const digest2 = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${email}${salt}`));
    const hex2 = [...new Uint8Array(digest2)].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(after).toMatchObject({ identityHash: `sha256$${hex2}`, salt });

    const off = await set(false);
    expect(await off.json()).toEqual({
      enabled: false,
      included: false,
      note: null,
      resigned: [certificateNo],
    });
    expect((await subjectOf()).identifier).toBeUndefined();
    await expectProblem(
      await call('/api/me/credential-identifier', jsonInit('PUT', { enabled: 'yes' }, as(candidate))),
      422,
      'validation-failed',
    );
  });
});

describe('the holder’s identifier on revoked credentials', () => {
  it('turning it off also strips it from a revoked credential, which stays public as revoked', async () => {
    const { employer, candidate, certificateNo } = await candidateWithCertificate('Kiran Revoked', {
      employerName: `Revoking Org ${crypto.randomUUID().slice(0, 6)}`,
    });
    const set = (enabled: boolean) =>
      call('/api/me/credential-identifier', jsonInit('PUT', { enabled }, as(candidate)));
    expect((await set(true)).status).toBe(200);
    const revoked = await call(
      `/api/certificates/${certificateNo}/revoke`,
      jsonInit('POST', { reason: 'Issued in error' }, as(employer)),
    );
    expect(revoked.status).toBe(200);
    const subject = async () =>
      (decodeSegment((await credentialOf(certificateNo)).split('.')[1]!) as Payload).credentialSubject as {
        identifier?: unknown[];
      };
    expect((await subject()).identifier).toHaveLength(1);
    const off = await set(false);
    expect(await off.json()).toEqual({
      enabled: false,
      included: false,
      note: null,
      resigned: [certificateNo],
    });
    expect((await subject()).identifier).toBeUndefined();
    // Still revoked, with its status bit set.
    const verified = await (await call(`/api/verify/${certificateNo}`)).json<{
      status: string;
      valid: boolean;
    }>();
    expect(verified).toMatchObject({ status: 'revoked', valid: false });
  });
});

describe('credentials issued before ES256', () => {
  it('still verify through the API: JWKS and the kid URL publish the retired Ed25519 key', async () => {
    const { certificateNo } = await candidateWithCertificate('Old Timer');
    const [cert] = await db()
      .select()
      .from(certificates)
      .where(eq(certificates.certificateNo, certificateNo));
    const legacy = JSON.parse(env.TEST_LEGACY_SIGNING_KEY) as JWK & { kid: string };
    const id = `urn:uuid:${cert!.id}`;
    const nbf = Math.floor(cert!.issuedAt.getTime() / 1000);
    // The credential exactly as it was issued before: EdDSA, bare thumbprint kid, old payload.
    const jwt = await new SignJWT({
      iss: env.PUBLIC_BASE_URL,
      sub: id,
      jti: id,
      nbf,
      iat: nbf,
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
      ],
      id,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer: { id: env.PUBLIC_BASE_URL, type: ['Profile'], name: 'Verification Platform' },
      validFrom: new Date(nbf * 1000).toISOString().replace('.000Z', 'Z'),
      name: 'Old brief',
      credentialSubject: {
        id,
        type: ['AchievementSubject'],
        achievement: {
          id: `${env.PUBLIC_BASE_URL}/api/verify/${certificateNo}`,
          type: ['Achievement'],
          achievementType: 'Certificate',
          name: 'Old brief',
          description: 'Completed the work brief.',
          criteria: { narrative: 'Submit the work.' },
        },
      },
    })
      .setProtectedHeader({ alg: 'EdDSA', kid: legacy.kid, typ: 'JWT' })
      .sign(await importJWK(legacy, 'EdDSA'));
    await db().update(certificates).set({ credentialJwt: jwt }).where(eq(certificates.id, cert!.id));
    await forgetVerifications(env, [certificateNo]);

    const served = await credentialOf(certificateNo);
    expect(served).toBe(jwt);
    const jwks = await (await call('/.well-known/jwks.json')).json<{
      keys: { kid: string; alg: string }[];
    }>();
    expect(jwks.keys.map((k) => k.alg)).toEqual(['ES256', 'EdDSA']);
    expect(await verifyCredential(served, jwks)).toMatchObject({
      valid: true,
      alg: 'EdDSA',
      kid: legacy.kid,
    });
    // Its key also has a URL of its own, answering exactly that JWK.
    const keyRes = await call(`/ob/keys/${legacy.kid}`);
    expect(keyRes.status).toBe(200);
    const jwk = await keyRes.json<JWK & { kid: string }>();
    expect(jwk).toEqual({
      // JSON-LD terms for the JWK members; JOSE libraries ignore the member (RFC 7517 §4).
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        expect.objectContaining({ kty: expect.any(String) }),
      ],
      kty: 'OKP',
      crv: 'Ed25519',
      x: legacy.x,
      kid: legacy.kid,
      use: 'sig',
      alg: 'EdDSA',
    });
    await compactVerify(served, await importJWK(jwk, 'EdDSA'));
  });
});

describe('the public documents', () => {
  it('answer 404 problems for unknown keys, issuers, achievements and lists, and 400 for malformed ids', async () => {
    await expectProblem(await call(`/ob/keys/${'A'.repeat(43)}`), 404, 'not-found');
    await expectProblem(await call(`/ob/issuers/${crypto.randomUUID()}`), 404, 'not-found');
    await expectProblem(await call(`/ob/achievements/${crypto.randomUUID()}`), 404, 'not-found');
    await expectProblem(await call('/ob/status-lists/revocation/999'), 404, 'not-found');
    await expectProblem(await call('/ob/issuers/not-an-id'), 400, 'invalid-parameters');
  });

  it('serve the platform profile, a suspended organisation as suspended, and no draft achievement', async () => {
    const platform = await call('/ob/issuers/platform');
    expect(platform.status).toBe(200);
    const body = await platform.json<{ name: string; url: string }>();
    expectSchemaValid(profileValidator, body);
    expect(body).toMatchObject({ name: 'Verification Platform', url: env.PUBLIC_BASE_URL });

    const employer = await signup('employer', 'Recruiter', 'Suspended Co');
    await verifyOrganisation(employer);
    const me = await (await call('/api/me', { headers: as(employer) })).json<{
      organisation: { id: string };
    }>();
    expect((await reviewOrganisation(employer, 'suspended', 'Complaints under review')).status).toBe(200);
    const profile = await (await call(`/ob/issuers/${me.organisation.id}`)).json<{
      verification: { state: string };
    }>();
    expect(profile.verification.state).toBe('suspended');

    const draft = await publishedBrief(await signup('employer', 'Drafter', 'Draft Co'), { publish: false });
    await expectProblem(await call(`/ob/achievements/${draft.id}`), 404, 'not-found');
  });
});

describe('expiry (validForMonths)', () => {
  it('signs validUntil, verifies as active before it and expired after it (injected clock, API and page)', async () => {
    const employer = await signup('employer', 'Recruiter', 'Expiring Co');
    const candidate = await signup('candidate', 'Tara Expiring');
    await verifyOrganisation(employer);
    for (const purpose of ALL_CONSENTS) await consent(candidate, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1, validForMonths: 12 });
    const { certificate } = await passEveryMilestone(employer, candidate, brief);
    const certificateNo = certificate!.certificateNo;

    const payload = decodeSegment((await credentialOf(certificateNo)).split('.')[1]!) as Payload;
    expectSchemaValid(credentialValidator, payload);
    const validUntil = Date.parse(payload.validUntil!);
    expect(payload.exp).toBe(validUntil / 1000);
    const issued = Date.parse(payload.validFrom as string);
    const months =
      (new Date(validUntil).getUTCFullYear() - new Date(issued).getUTCFullYear()) * 12 +
      new Date(validUntil).getUTCMonth() -
      new Date(issued).getUTCMonth();
    expect(months).toBe(12);

    const verify = await (await call(`/api/verify/${certificateNo}`)).json<{
      status: string;
      valid: boolean;
      validUntil: string;
    }>();
    expect(verify).toMatchObject({
      status: 'active',
      valid: true,
      validUntil: new Date(validUntil).toISOString(),
    });

    const before = await buildVerification(db(), env, certificateNo, new Date(validUntil - 1000));
    expect(before?.payload).toMatchObject({ status: 'active', valid: true });
    const after = await buildVerification(db(), env, certificateNo, new Date(validUntil));
    expect(after?.payload).toMatchObject({ status: 'expired', valid: false });

    // As if the clock had moved past validUntil: the API and the page say expired.
    await db()
      .update(certificates)
      .set({ validUntil: new Date(Date.now() - 1000) })
      .where(eq(certificates.certificateNo, certificateNo));
    await forgetVerifications(env, [certificateNo]);
    expect(await (await call(`/api/verify/${certificateNo}`)).json()).toMatchObject({
      status: 'expired',
      valid: false,
    });
    const page = await (await call(`/verify/${certificateNo}`)).text();
    expect(page).toContain('data-status="expired"');
    expect(page).toContain('This certificate was valid until');
  });

  it('lets the brief set, change and clear validForMonths within 1..120', async () => {
    const employer = await signup('employer', 'Recruiter', 'Validity Co');
    const brief = await publishedBrief(employer, { validForMonths: 24 });
    const read = await (await call(`/api/briefs/${brief.id}`, { headers: as(employer) })).json<{
      validForMonths: number | null;
    }>();
    expect(read.validForMonths).toBe(24);
    const patch = (body: unknown) => call(`/api/briefs/${brief.id}`, jsonInit('PATCH', body, as(employer)));
    expect(
      (await (await patch({ validForMonths: 6 })).json<{ validForMonths: number }>()).validForMonths,
    ).toBe(6);
    expect(
      (await (await patch({ validForMonths: null })).json<{ validForMonths: null }>()).validForMonths,
    ).toBeNull();
    await expectProblem(await patch({ validForMonths: 0 }), 422, 'validation-failed');
    await expectProblem(await patch({ validForMonths: 121 }), 422, 'validation-failed');
    await expectProblem(await patch({}), 422, 'validation-failed');
    await expectProblem(
      await call(
        '/api/briefs',
        jsonInit(
          'POST',
          { ...(await import('./demo-brief.json')).default.brief, validForMonths: 1.5 },
          as(employer),
        ),
      ),
      422,
      'validation-failed',
    );
  });
});

describe('links for people', () => {
  it('point to the verification page, not the JSON', async () => {
    const { candidate, certificateNo } = await candidateWithCertificate('Link Person');
    const mine = await (await call('/api/me/certificates', { headers: as(candidate) })).json<{
      items: { verifyUrl: string }[];
    }>();
    expect(mine.items[0]?.verifyUrl).toBe(`${env.PUBLIC_BASE_URL}/verify/${certificateNo}`);
  });
});

describe('key configuration', () => {
  /** The Worker with some settings changed, its response checked against the OpenAPI document. */
  async function withSettings(path: string, settings: Partial<Env>): Promise<Response> {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`${BASE}${path}`), { ...env, ...settings }, ctx);
    await waitOnExecutionContext(ctx);
    await assertDocumentedResponse('GET', `${BASE}${path}`, res.clone());
    return res;
  }

  it('treats an Ed25519 CERT_SIGNING_KEY (from before ES256) and malformed previous keys as not configured: health names them, the keys answer 503', async () => {
    const health = await withSettings('/api/health', {
      CERT_SIGNING_KEY: env.TEST_LEGACY_SIGNING_KEY,
      CERT_PREVIOUS_PUBLIC_KEYS: '[{"kty":"OKP"}]',
    });
    const body = await health.json<{ checks: { configuration: { missing: string[] } } }>();
    expect(body.checks.configuration.missing).toEqual(['CERT_SIGNING_KEY', 'CERT_PREVIOUS_PUBLIC_KEYS']);
    expect(JSON.stringify(body)).not.toContain(JSON.parse(env.TEST_LEGACY_SIGNING_KEY).d);
    await expectProblem(
      await withSettings('/.well-known/jwks.json', { CERT_SIGNING_KEY: env.TEST_LEGACY_SIGNING_KEY }),
      503,
      'not-configured',
    );
    await expectProblem(
      await withSettings(`/ob/keys/${'A'.repeat(43)}`, { CERT_PREVIOUS_PUBLIC_KEYS: 'not json' }),
      503,
      'not-configured',
    );
  });
});
