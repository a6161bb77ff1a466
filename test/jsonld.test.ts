/**
 * Every document we serve or sign is read by JSON-LD processors too: each kind (a credential, the
 * status list credential, an issuer Profile and the platform's, an Achievement with
 * `validForMonths`, its criteria, a signing key, current and retired) is expanded by jsonld.js in
 * safe mode with the official VC 2.0 and Open Badges 3.0.3 contexts loaded from their packages
 * (test/doubles/jsonld.mjs, in Node: jsonld.js does not load in workerd). Safe mode makes any
 * dropped property, undefined term, relative IRI or redefined protected term an error.
 */
import { env } from 'cloudflare:test';
import { base64url, calculateJwkThumbprint } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  ALL_CONSENTS,
  consent,
  passEveryMilestone,
  publishedBrief,
  signup,
  verifyOrganisation,
} from './harness';
import { as, call, jsonInit } from './helpers';

type Expansion = { ok: true; expanded: unknown[] } | { ok: false; error: string };

async function expand(document: unknown, base?: string): Promise<Expansion> {
  const res = await fetch('http://jsonld.test/expand', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ document, base }),
  });
  expect(res.status).toBe(200);
  return res.json<Expansion>();
}

/** The document at one of our URLs (JSON, or the payload of a VC-JWT). */
async function served(url: string): Promise<Record<string, unknown>> {
  expect(url.startsWith(`${env.PUBLIC_BASE_URL}/`)).toBe(true);
  const res = await call(url.slice(env.PUBLIC_BASE_URL.length));
  expect(res.status).toBe(200);
  const text = await res.text();
  return res.headers.get('content-type')?.includes('jwt') ? payloadOf(text) : JSON.parse(text);
}

function payloadOf(jwt: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(base64url.decode(jwt.split('.')[1]!)));
}

/** Every key of every object in a JSON value, for "no term dropped": each must come out as an IRI. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === '@context') continue;
      out.add(k);
      // `@json` values (the Profile's `verification`) are literals: their keys are not terms.
      if (k !== 'verification') keysOf(v, out);
    }
  return out;
}

async function expectClean(kind: string, document: Record<string, unknown>, base?: string) {
  const result = await expand(document, base);
  expect(result, `${kind}: ${result.ok ? '' : result.error}`).toMatchObject({ ok: true });
  if (!result.ok) return;
  // Safe mode already refuses a dropped term; check the converse too: every key's value survives
  // (the expansion mentions as many IRIs/keywords as the document has distinct members, at least).
  const expandedText = JSON.stringify(result.expanded);
  for (const key of keysOf(document)) {
    if (key === 'id' || key === 'type') continue;
    expect(expandedText, `${kind}: member ${key}`).toMatch(new RegExp(`[#/]${key}"|"@${key}"`));
  }
}

describe('JSON-LD: every document we serve expands in safe mode with the official contexts', () => {
  it('the processor is strict: an undefined term and a redefined protected term are refused', async () => {
    const bad = await expand({
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential'],
      notATerm: 1,
    });
    expect(bad.ok).toBe(false);
    const redefined = await expand({
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        { iss: { '@id': 'https://www.iana.org/assignments/jwt#iss', '@type': '@id' } },
      ],
      type: ['VerifiableCredential'],
      iss: 'https://example.org/',
    });
    expect(redefined).toMatchObject({ ok: false });
    expect(redefined.ok ? '' : redefined.error).toMatch(/protected term/);
  });

  it('credential, status list, Profiles, Achievement, criteria, keys: no error, no dropped term', {
    timeout: 120_000,
  }, async () => {
    const employer = await signup('employer', 'Recruiter', 'Linked Data Co');
    const candidate = await signup('candidate', 'Lina Triples');
    await verifyOrganisation(employer);
    for (const purpose of ALL_CONSENTS) await consent(candidate, purpose);
    const brief = await publishedBrief(employer, { durationDays: 1, validForMonths: 12 });
    const { certificate } = await passEveryMilestone(employer, candidate, brief);
    const verification = await (await call(`/api/verify/${certificate!.certificateNo}`)).json<{
      credential: { jwt: string };
    }>();
    const jwt = verification.credential.jwt;
    const credential = payloadOf(jwt) as Record<string, unknown> & {
      validUntil?: string;
      issuer: { id: string };
      credentialStatus: { statusListCredential: string };
      credentialSubject: { achievement: { id: string; image: unknown; criteria: { id: string } } };
    };
    expect(credential.validUntil).toBeDefined();
    // The rubric's levels and the rating (`result`) are among what is expanded.
    expect((credential.credentialSubject as { result?: unknown[] }).result?.length).toBeGreaterThan(0);

    await expectClean('credential', credential);
    // The holder's hashed email (`identifier`, an IdentityObject) when they ask for it: re-signed.
    const on = await call('/api/me/credential-identifier', jsonInit('PUT', { enabled: true }, as(candidate)));
    expect(on.status).toBe(200);
    const resigned = payloadOf(
      (
        await (
          await call(`/api/verify/${certificate!.certificateNo}`)
        ).json<{
          credential: { jwt: string };
        }>()
      ).credential.jwt,
    ) as { credentialSubject: { identifier?: unknown[] } };
    expect(resigned.credentialSubject.identifier).toHaveLength(1);
    await expectClean('credential with identifier', resigned);
    const statusList = await served(credential.credentialStatus.statusListCredential);
    await expectClean('status list credential', statusList);
    // issuer.id is the organisation's did:web; its Profile is at /ob/issuers/{id} (decision 0350).
    const organisationId = credential.issuer.id.split(':').at(-1);
    await expectClean('issuer Profile', await served(`${env.PUBLIC_BASE_URL}/ob/issuers/${organisationId}`));
    await expectClean('platform Profile', await served(`${env.PUBLIC_BASE_URL}/ob/issuers/platform`));
    const achievement = await served(credential.credentialSubject.achievement.id);
    expect(achievement.validForMonths).toBe(12);
    await expectClean('Achievement', achievement);
    const achievementInCredential = credential.credentialSubject.achievement;
    expect(achievementInCredential.image).toMatchObject({ type: 'Image' });
    expect(achievementInCredential.criteria.id).toMatch(/\/criteria$/);
    await expectClean('criteria', await served(achievementInCredential.criteria.id));

    const header = JSON.parse(new TextDecoder().decode(base64url.decode(jwt.split('.')[0]!)));
    await expectClean('key', await served(header.kid), header.kid);
    // The retired Ed25519 key: its `kid` is a bare thumbprint, read against the document's URL.
    const legacy = JSON.parse(env.CERT_PREVIOUS_PUBLIC_KEYS)[0];
    const legacyUrl = `${env.PUBLIC_BASE_URL}/ob/keys/${await calculateJwkThumbprint(legacy)}`;
    await expectClean('retired key', await served(legacyUrl), legacyUrl);
  });

  it('the achievement image is a PNG named after the achievement, with no credential baked in', {
    timeout: 60_000,
  }, async () => {
    const employer = await signup('employer', 'Recruiter', 'Image Co');
    await verifyOrganisation(employer);
    const brief = await publishedBrief(employer, { title: 'Design a bird feeder API', durationDays: 1 });
    const achievement = await served(`${env.PUBLIC_BASE_URL}/ob/achievements/${brief.id}`);
    const image = achievement.image as { id: string; caption: string };
    expect(image.caption).toContain('Design a bird feeder API');
    const res = await call(image.id.slice(env.PUBLIC_BASE_URL.length));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const { pngText, extractFromPng } = await import('../src/domain/certificates/badge');
    const png = new Uint8Array(await res.arrayBuffer());
    expect(pngText(png, 'Title')).toBe('Design a bird feeder API');
    expect(extractFromPng(png)).toBeNull();
  });
});
