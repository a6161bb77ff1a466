/**
 * Foreign Open Badges issuers for the verifier's tests: real keys (jose), real signed credentials
 * and status lists, published on hosts of the issuers test double (test/doubles/issuers.mjs).
 */
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { bitstring, encodeStatusList } from '../src/domain/certificates/status-list';
import { call, freshIp, jsonInit } from './helpers';

export type Alg = 'ES256' | 'RS256' | 'EdDSA';

export type ForeignIssuer = {
  host: string;
  id: string;
  kid: string;
  alg: Alg;
  privateKey: CryptoKey;
  publicJwk: JWK;
};

/** Publishes a document on a double host (`https://<host><path>`). */
export async function publish(
  host: string,
  path: string,
  body: unknown,
  options: {
    contentType?: string;
    status?: number;
    delayMs?: number;
    padBytes?: number;
    headers?: Record<string, string>;
    /** `body` is the base64 of bytes (a baked PNG). */
    base64?: boolean;
    /** The body one byte every `trickleMs` ms, after the headers (a slow body). */
    trickleMs?: number;
  } = {},
): Promise<void> {
  const res = await fetch('https://control.issuer.test/__control/doc', {
    method: 'PUT',
    body: JSON.stringify({ host, path, body, ...options }),
  });
  if (res.status !== 204) throw new Error(`publish failed: ${res.status}`);
}

/** The paths fetched from a double host, in order. */
export async function fetchedFrom(host: string): Promise<string[]> {
  const res = await fetch(`https://${host}/__control/log`);
  return (await res.json<{ requests: string[] }>()).requests;
}

/** Makes `name` resolve (DoH double) to `address`. */
export async function resolveTo(name: string, address: string, type: 'A' | 'AAAA' = 'A') {
  await fetch('http://doh.test/records', {
    method: 'PUT',
    body: JSON.stringify({ name, values: [address], type }),
  });
}

let counter = 0;

/** A new issuer on its own host with a key of `alg` at `/keys/1` and a Profile at `/issuer`. */
export async function foreignIssuer(alg: Alg, name = `Foreign ${alg} University`): Promise<ForeignIssuer> {
  counter += 1;
  const host = `${alg.toLowerCase()}-${counter}-${crypto.randomUUID().slice(0, 8)}.issuer.test`;
  const { publicKey, privateKey } = await generateKeyPair(alg, {
    extractable: true,
    ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}),
  });
  const id = `https://${host}/issuer`;
  const kid = `https://${host}/keys/1`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg };
  // The key document names its controller (the issuer), and the Profile lists the key: either
  // binds a key to the issuer (a key merely on the issuer's host does not).
  const method = { id: kid, type: 'JsonWebKey', controller: id, publicKeyJwk: publicJwk };
  await publish(host, '/keys/1', method, { headers: { 'cache-control': 'max-age=600' } });
  await publish(host, '/issuer', {
    '@context': [
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    ],
    id,
    type: ['Profile'],
    name,
    url: `https://${host}/`,
    verificationMethod: [method],
  });
  return { host, id, kid, alg, privateKey: privateKey as CryptoKey, publicJwk };
}

/** An OB 3.0 AchievementCredential from `issuer` (schema-valid), with `extra` members merged in. */
export function credentialFrom(
  issuer: Pick<ForeignIssuer, 'id'> & { name?: string },
  extra: Record<string, unknown> = {},
) {
  return {
    '@context': [
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    ],
    id: `urn:uuid:${crypto.randomUUID()}`,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer: { id: issuer.id, type: ['Profile'], name: issuer.name ?? 'Foreign University' },
    validFrom: '2026-01-05T10:00:00Z',
    name: 'Data Structures',
    credentialSubject: {
      id: `did:example:${crypto.randomUUID()}`,
      type: ['AchievementSubject'],
      achievement: {
        id: `${issuer.id}/achievements/ds`,
        type: ['Achievement'],
        name: 'Data Structures',
        description: 'Passed the data structures course.',
        criteria: { narrative: 'Pass the final exam.' },
      },
    },
    ...extra,
  };
}

const seconds = (iso: unknown) => (typeof iso === 'string' ? Math.floor(Date.parse(iso) / 1000) : undefined);

/** Signs a credential as a VC-JWT (claims mirrored; `header` replaces members; `vc`: the VC 1.1 encoding). */
export async function signAs(
  issuer: Pick<ForeignIssuer, 'alg' | 'kid' | 'privateKey'>,
  credential: Record<string, unknown>,
  options: { header?: Record<string, unknown>; vcClaim?: boolean } = {},
): Promise<string> {
  const subject = credential.credentialSubject as { id?: string } | undefined;
  const issuerId =
    typeof credential.issuer === 'string' ? credential.issuer : (credential.issuer as { id: string }).id;
  const claims = {
    iss: issuerId,
    jti: credential.id,
    ...(subject?.id ? { sub: subject.id } : {}),
    nbf: seconds(credential.validFrom),
    ...(credential.validUntil ? { exp: seconds(credential.validUntil) } : {}),
  };
  const payload = options.vcClaim ? { vc: credential, ...claims } : { ...credential, ...claims };
  return new SignJWT(payload as Record<string, unknown>)
    .setProtectedHeader({ alg: issuer.alg, kid: issuer.kid, typ: 'JWT', ...options.header } as never)
    .sign(issuer.privateKey);
}

/** Publishes a signed status list (revocation unless `purpose` says) with `set` bits at `path`; returns its URL. */
export async function publishStatusList(
  issuer: ForeignIssuer,
  path: string,
  set: number[],
  purpose: 'revocation' | 'suspension' = 'revocation',
): Promise<string> {
  const url = `https://${issuer.host}${path}`;
  const list = {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: url,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: issuer.id,
    validFrom: '2026-01-01T00:00:00Z',
    credentialSubject: {
      id: `${url}#list`,
      type: 'BitstringStatusList',
      statusPurpose: purpose,
      encodedList: encodeStatusList(bitstring(set)),
    },
  };
  await publish(issuer.host, path, await signAs(issuer, list), { contentType: 'application/vc+jwt' });
  return url;
}

export const statusEntryFor = (
  url: string,
  index: number,
  purpose: 'revocation' | 'suspension' = 'revocation',
) => ({
  id: `${url}#${index}`,
  type: 'BitstringStatusListEntry',
  statusPurpose: purpose,
  statusListIndex: String(index),
  statusListCredential: url,
});

export type Report = {
  verdict: string;
  summary: string;
  checks: { check: string; outcome: string; detail: string }[];
  issuer: {
    id: string | null;
    name: string | null;
    url: string | null;
    verifiedHere: boolean;
    standing: string | null;
  };
  credential: { name: string | null } | null;
  container: string | null;
  format?: string | null;
  verifiedCredential?: string | null;
};

/** `POST /api/credentials/verify` (public) or `/api/v1/credentials/verify` with `key`. */
export async function verify(
  body: { credential?: string | Record<string, unknown>; badge?: string },
  key?: string,
): Promise<Report> {
  const path = key ? '/api/v1/credentials/verify' : '/api/credentials/verify';
  const res = await call(
    path,
    jsonInit('POST', body, key ? { 'X-Service-Key': key } : { 'CF-Connecting-IP': freshIp() }),
  );
  if (res.status !== 200) throw new Error(`verify answered ${res.status}: ${await res.text()}`);
  return res.json<Report>();
}

export const checkOf = (report: Report, name: string) => report.checks.find((c) => c.check === name);

export const base64Of = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
