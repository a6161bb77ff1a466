/**
 * The Bitstring Status List credential in its Data Integrity form, for verifiers that read only
 * JSON-LD with embedded proofs (the DCC verifier asks `Accept: application/ld+json,
 * application/json`): the same list (`id`, bits, `validFrom`, `ttl`) as the VC-JWT served at the
 * same URL, issued by the platform's `did:web` and secured with an eddsa-rdfc-2022 proof by the
 * platform's Ed25519 key (decision 0350). Derived from the current VC-JWT, so it changes exactly
 * when the list does; signed once per isolate per list version. The Data Integrity stack is loaded
 * only here, when such a client asks.
 */
import { decodeJwt } from '../domain/certificates/credential';
import { issuerDid } from '../domain/certificates/did-web';
import { issuerSigner } from './issuer-keys';

const JWT_CLAIMS = new Set(['iss', 'sub', 'jti', 'nbf', 'iat', 'exp']);

const memo = new Map<string, Promise<string>>();

/** Whether a request's `Accept` asks for JSON-LD rather than the VC-JWT. */
export function wantsJsonLd(accept: string | undefined): boolean {
  if (!accept) return false;
  const lower = accept.toLowerCase();
  if (lower.includes('jwt')) return false;
  return (
    lower.includes('application/ld+json') ||
    lower.includes('application/vc+ld+json') ||
    /application\/vc(\s*[,;]|$)/.test(lower)
  );
}

/** The Data Integrity JSON of the status list whose current VC-JWT is `jwt`. */
export function statusListDataIntegrity(
  env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>,
  jwt: string,
): Promise<string> {
  let made = memo.get(jwt);
  if (!made) {
    if (memo.size > 16) memo.clear();
    made = sign(env, jwt);
    made.catch(() => memo.delete(jwt));
    memo.set(jwt, made);
  }
  return made;
}

async function sign(env: Pick<Env, 'CERT_SIGNING_KEY' | 'PUBLIC_BASE_URL'>, jwt: string): Promise<string> {
  const decoded = decodeJwt(jwt);
  if (!decoded) throw new Error('the status list VC-JWT does not decode');
  const credential: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(decoded.payload)) {
    if (!JWT_CLAIMS.has(name)) credential[name] = value;
  }
  // Only the VC 2.0 context: the third one defines the JWT's `jti`, which is not here.
  credential['@context'] = ['https://www.w3.org/ns/credentials/v2'];
  credential.issuer = issuerDid(env.PUBLIC_BASE_URL, null);
  const { signDataIntegrity } = await import('../domain/certificates/data-integrity');
  const signer = await issuerSigner(env, null);
  const validFrom = typeof credential.validFrom === 'string' ? new Date(credential.validFrom) : new Date();
  return JSON.stringify(await signDataIntegrity(credential, signer, validFrom));
}
