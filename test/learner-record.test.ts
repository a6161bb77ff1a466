/**
 * The learner record (CLR 2.0 `ClrCredential`, VC-JWT): `GET /api/me/learner-record` for the
 * signed-in holder and `GET /ims/clr/v2p0/credentials` for a client the holder authorised (the
 * same `oauth4webapi` client as test/ob-api.test.ts). Every record is validated against the
 * 1EdTech ClrCredential JSON Schema (test/fixtures/clr2/) and verified with the key its `kid` names.
 */

import { Validator } from '@cfworker/json-schema';
import { eq } from 'drizzle-orm';
import { createLocalJWKSet, decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { certificates } from '../src/db/schema';
import clrSchema from './fixtures/clr2/clr_v2p0_clrcredential_schema_draft4.json';
import { candidateWithCertificate, certify, db, loginAdmin, signup } from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';
import { authorise, exchange, expectSpecValid, register, SCOPE_READ } from './ob-client';

const SCOPE_CLR = 'https://purl.imsglobal.org/spec/clr/v2p0/scope/credential.readonly';

/**
 * The fixture is the CLR 2.0 ClrCredential schema of the VC 1.1 data model (draft-04). The
 * credentials here are on VC 2.0, as CLR 2.0's current schema is; the test restates exactly the
 * VC 1.1 → 2.0 differences, leaving every other rule of the fixture as it is:
 * `issuanceDate` → `validFrom` (and `expirationDate` → `validUntil`) where required, `@context`
 * entries may be objects (a context definition), and a `credentialStatus` may carry its status
 * method's own members (BitstringStatusListEntry's `statusPurpose`, `statusListIndex`, …).
 */
type Node = { required: string[]; properties: Record<string, unknown>; additionalProperties?: boolean };
function vc2Schema(): object {
  const schema = structuredClone(clrSchema) as unknown as Node & {
    $schema?: string;
    $defs: Record<string, Node>;
  };
  const dateTime = { type: 'string', format: 'date-time' };
  const context = { type: 'array', minItems: 1, items: { anyOf: [{ type: 'string' }, { type: 'object' }] } };
  for (const node of [schema, schema.$defs.VerifiableCredential!, schema.$defs.EndorsementCredential!]) {
    node.required = node.required.map((r) => (r === 'issuanceDate' ? 'validFrom' : r));
    node.properties.validFrom = dateTime;
    node.properties.validUntil = dateTime;
    node.properties['@context'] = context;
  }
  schema.$defs.CredentialStatus!.additionalProperties = true;
  delete schema.$schema;
  return schema;
}
const validator = new Validator(vc2Schema() as never, '2019-09', false);

function expectClrValid(payload: unknown) {
  const result = validator.validate(payload);
  expect(result.errors.filter((e) => e.keyword !== '$ref' && e.keyword !== 'properties')).toEqual([]);
  expect(result.valid).toBe(true);
}

/** Verifies with the published JWKS, choosing the key by the header's `kid`. */
async function verifyWithJwks(jwt: string) {
  const jwks = await (await call('/.well-known/jwks.json')).json<{ keys: JWK[] }>();
  const header = decodeProtectedHeader(jwt);
  expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
  return jwtVerify(jwt, createLocalJWKSet(jwks), { algorithms: ['ES256'] });
}

const learnerRecord = (who: Account) => call('/api/me/learner-record', { headers: as(who) });

async function storedJwt(certificateNo: string) {
  const [row] = await db()
    .select({ jwt: certificates.credentialJwt })
    .from(certificates)
    .where(eq(certificates.certificateNo, certificateNo));
  return row!.jwt!;
}

const idOf = (jwt: string) => JSON.parse(atob(jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))).id;

let holder: Account;
let kept: string;
let revoked: string;

beforeAll(async () => {
  const first = await candidateWithCertificate('Meera Record', { employerName: 'Acme Hiring' });
  holder = first.candidate;
  kept = first.certificateNo;
  const second = await certify(await signup('employer', 'Recruiter', 'Second employer'), holder, {
    title: 'Second brief',
  });
  revoked = second.certificateNo;
  const admin = await loginAdmin();
  const res = await call(
    `/api/certificates/${revoked}/revoke`,
    jsonInit('POST', { reason: 'Work found to be plagiarised' }, as(admin)),
  );
  expect(res.status).toBe(200);
}, 120_000);

describe('GET /api/me/learner-record', { timeout: 30_000 }, () => {
  it('is a signed ClrCredential that validates against the CLR 2.0 schema and holds only the active certificates', async () => {
    const res = await learnerRecord(holder);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json<{ format: string; jwt: string; credentials: number }>();
    expect(body.format).toBe('vc-jwt');
    expect(body.credentials).toBe(1);

    const { payload, protectedHeader } = await verifyWithJwks(body.jwt);
    // The same key and kid rules as the certificates: the kid is the key's URL, as on the certificate.
    expect(protectedHeader).toEqual({
      alg: 'ES256',
      kid: decodeProtectedHeader(await storedJwt(kept)).kid,
      typ: 'JWT',
    });
    expectClrValid(payload);
    expect(payload.type).toEqual(['VerifiableCredential', 'ClrCredential']);
    const subject = payload.credentialSubject as {
      id: string;
      type: string[];
      verifiableCredential: { id: string; credentialSubject: { id: string } }[];
    };
    expect(subject.type).toEqual(['ClrSubject']);
    expect(subject.verifiableCredential.map((vc) => vc.id)).toEqual([idOf(await storedJwt(kept))]);
    expect(subject.verifiableCredential.map((vc) => vc.id)).not.toContain(idOf(await storedJwt(revoked)));
    // Bound to the holder's credential subject, the same as their certificates'.
    expect(payload.sub).toBe(subject.id);
    expect(subject.verifiableCredential[0]!.credentialSubject.id).toBe(subject.id);
    expect(payload.iss).toBe((payload.issuer as { id: string }).id);
    expect(payload.jti).toBe(payload.id);
    expect(JSON.stringify(payload)).not.toContain('Meera');
  });

  it('is offered on the holder’s certificates listing (`learnerRecord`, on every page), and the link answers', async () => {
    const listed = await call('/api/me/certificates?limit=1', { headers: as(holder) });
    expect(listed.status).toBe(200);
    const page = await listed.json<{ items: unknown[]; nextCursor: string | null; learnerRecord: string }>();
    expect(page.learnerRecord).toBe('http://localhost:8787/api/me/learner-record');
    expect(page.nextCursor).not.toBeNull();
    const next = await (
      await call(`/api/me/certificates?limit=1&cursor=${encodeURIComponent(page.nextCursor!)}`, {
        headers: as(holder),
      })
    ).json<{ learnerRecord: string }>();
    expect(next.learnerRecord).toBe(page.learnerRecord);
    const followed = await call(new URL(page.learnerRecord).pathname, { headers: as(holder) });
    expect(followed.status).toBe(200);
    expect((await followed.json<{ credentials: number }>()).credentials).toBe(1);
  });

  it('is refused without a session, and another person never reads it', async () => {
    expect((await call('/api/me/learner-record')).status).toBe(401);
    const other = await signup('candidate', 'Other Person');
    const res = await learnerRecord(other);
    await expectProblem(res, 404, 'not-found');
  });

  it('holder with no active certificate: 404, no empty record (CLR 2.0 needs at least one credential)', async () => {
    const none = await signup('candidate', 'No Certificates');
    await expectProblem(await learnerRecord(none), 404, 'not-found');
  });
});

describe('GET /ims/clr/v2p0/discovery', () => {
  it('is a Service Description Document naming the learner record, the shared OAuth server and the CLR scope', async () => {
    const res = await call('/ims/clr/v2p0/discovery');
    expect(res.status).toBe(200);
    const sdd = await res.json<{
      info: Record<string, string>;
      servers: { url: string }[];
      paths: Record<string, unknown>;
      components: {
        securitySchemes: {
          OAuth2ACG: {
            'x-imssf-registrationUrl': string;
            flows: {
              authorizationCode: {
                authorizationUrl: string;
                tokenUrl: string;
                scopes: Record<string, string>;
              };
            };
          };
        };
      };
    }>();
    // CLR 2.0's Service Description Document has the Open Badges one's shape (the 1EdTech OB file's schema).
    expectSpecValid('ServiceDescriptionDocument', sdd);
    expect(sdd.servers[0]!.url).toBe('http://localhost:8787/ims/clr/v2p0');
    expect(Object.keys(sdd.paths).sort()).toEqual(['/credentials', '/discovery']);
    const scheme = sdd.components.securitySchemes.OAuth2ACG;
    expect(Object.keys(scheme.flows.authorizationCode.scopes)).toEqual([SCOPE_CLR]);
    // The same authorization server as the Open Badges API: one registration serves both.
    const ob = await (await call('/ims/ob/v3p0/discovery')).json<typeof sdd>();
    const obScheme = ob.components.securitySchemes.OAuth2ACG;
    expect(scheme['x-imssf-registrationUrl']).toBe(obScheme['x-imssf-registrationUrl']);
    expect(scheme.flows.authorizationCode.authorizationUrl).toBe(
      obScheme.flows.authorizationCode.authorizationUrl,
    );
    expect(scheme.flows.authorizationCode.tokenUrl).toBe(obScheme.flows.authorizationCode.tokenUrl);
    expect(sdd.info['x-imssf-privacyPolicyUrl']).toBe(ob.info['x-imssf-privacyPolicyUrl']);
    // The endpoint it names is the protected learner record.
    const credentials = await call(new URL(`${sdd.servers[0]!.url}/credentials`).pathname);
    expect(credentials.status).toBe(401);
    expectSpecValid('Imsx_StatusInfo', await credentials.json());
    const wrongMethod = await call('/ims/clr/v2p0/discovery', { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expectSpecValid('Imsx_StatusInfo', await wrongMethod.json());
  });
});

describe('GET /ims/clr/v2p0/credentials', { timeout: 60_000 }, () => {
  it('serves the learner record as compact JWS to a client with the CLR scope, and refuses one without it', async () => {
    const r = await register(`${SCOPE_READ} ${SCOPE_CLR} offline_access`);
    const { params, verifier, page } = await authorise(holder, r, `${SCOPE_CLR} offline_access`);
    expect(page.html).toContain(SCOPE_CLR);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    const res = await call('/ims/clr/v2p0/credentials', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
    const body = await res.json<{ compactJwsString: string[] }>();
    expect(body.compactJwsString).toHaveLength(1);
    const { payload } = await verifyWithJwks(body.compactJwsString[0]!);
    expectClrValid(payload);
    // Each certificate inside is its Data Integrity form, verifiable on its own (issue 56).
    const inside = (payload.credentialSubject as { verifiableCredential: { proof?: unknown }[] })
      .verifiableCredential;
    expect(inside[0]!.proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' });

    // A token for the Open Badges scope only is not one for the learner record.
    const ob = await register();
    const obAuth = await authorise(holder, ob, SCOPE_READ);
    const obTokens = await oauth.processAuthorizationCodeResponse(
      ob.as,
      ob.client,
      await exchange(ob, obAuth.params, obAuth.verifier),
    );
    const refused = await call('/ims/clr/v2p0/credentials', {
      headers: { authorization: `Bearer ${obTokens.access_token}` },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain(`scope="${SCOPE_CLR}"`);
    expectSpecValid('Imsx_StatusInfo', await refused.json());
    const anonymous = await call('/ims/clr/v2p0/credentials');
    expect(anonymous.status).toBe(401);
    expectSpecValid('Imsx_StatusInfo', await anonymous.json());
  });

  it('an expired certificate leaves the record too: then the list is empty', async () => {
    await db()
      .update(certificates)
      .set({ validUntil: new Date(Date.now() - 60_000) })
      .where(eq(certificates.certificateNo, kept));
    await expectProblem(await learnerRecord(holder), 404, 'not-found');
    const r = await register(`${SCOPE_CLR}`);
    const { params, verifier } = await authorise(holder, r, SCOPE_CLR);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    const res = await call('/ims/clr/v2p0/credentials', {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('0');
    expect(await res.json()).toEqual({ compactJwsString: [] });
  });
});
