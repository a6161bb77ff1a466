/**
 * A credential named by URL (`{"url": …}` on the verify routes, "or a link to the badge" on the
 * /verify page): the 1EdTech displayer test hands a displayer badge URLs. The URL is fetched under
 * the outbound rules every other fetch of the verifier follows (src/services/outbound-fetch.ts:
 * https only, public addresses after DNS, same-origin redirects each re-checked, a time limit per
 * fetch) and from the verification's own fetch budget, so naming a URL adds no time one request
 * may take (decision 0357). What comes back is read by the one reader an upload goes through, as
 * its media type says, and the answer names it (`fetched`).
 */
import type { Database } from '../../db/client';
import { ProblemError } from '../../lib/problem';
import {
  FETCH_BUDGET,
  type FetchedCredential,
  type VerificationReport,
  verifyPresentedCredential,
} from '../credential-verifier';
import { AddressRefused, type FetchBudget, guardedFetch, OutboundRefused } from '../outbound-fetch';

/** A badge by URL may be as large as one sent as bytes (the request body limit). */
export const CREDENTIAL_URL_MAX_BYTES = 1024 * 1024;

const ACCEPT =
  'application/vc+jwt, application/vc+ld+json, application/vc, application/ld+json, application/json, ' +
  'image/png, image/svg+xml, application/jwt;q=0.9, text/plain;q=0.5, */*;q=0.1';

export type FetchedBadge = {
  bytes: Uint8Array;
  answer: FetchedCredential;
};

const pointer = (detail: string) => ({ errors: [{ pointer: '#/url', detail }] });

/**
 * Fetches the credential or baked badge at `url`, spending `budget`. A URL the rules refuse is a
 * 422 `credential-url-refused` (nothing was sent); one that gives no answer to read (timeout, too
 * large, a redirect to another host, a status other than 200, unreachable) a 422
 * `credential-url-unreachable`. An answer that is not a credential is not refused here: the
 * reader says why at `parse`, as for an upload.
 */
export async function fetchCredentialAt(
  env: Pick<Env, 'DOH_RESOLVER_URL' | 'WEBHOOKS_ALLOW_HTTP_LOCALHOST' | 'PUBLIC_BASE_URL'>,
  url: string,
  budget: FetchBudget,
): Promise<FetchedBadge> {
  let doc: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    doc = await guardedFetch(env, url, {
      budget,
      accept: ACCEPT,
      maxBytes: CREDENTIAL_URL_MAX_BYTES,
      userAgent: 'verification-platform-credential-verifier (badge by URL)',
    });
  } catch (error) {
    if (error instanceof AddressRefused)
      throw new ProblemError('credential-url-refused', `url: ${error.message}`, pointer(error.message));
    if (error instanceof OutboundRefused)
      throw new ProblemError('credential-url-unreachable', `url: ${error.message}`, pointer(error.message));
    throw error;
  }
  if (doc.status !== 200) {
    const why = `The URL answered ${doc.status}, not the credential.`;
    throw new ProblemError('credential-url-unreachable', why, pointer(why));
  }
  const mediaType = (doc.contentType.split(';')[0] ?? '').trim().toLowerCase();
  return {
    bytes: doc.bytes,
    answer: { url, finalUrl: doc.url, mediaType: mediaType || null, size: doc.bytes.byteLength },
  };
}

/**
 * The credential at `url`, fetched (a problem when it cannot be) and verified as an upload is, from
 * one budget of fetches. `badge`: what was fetched (the /verify page shows a baked badge's image).
 */
export async function verifyCredentialAt(
  db: Database,
  env: Parameters<typeof verifyPresentedCredential>[1] & Pick<Env, 'DOH_RESOLVER_URL'>,
  url: string,
  now = new Date(),
): Promise<{ report: VerificationReport; badge: FetchedBadge }> {
  const budget = { remaining: FETCH_BUDGET };
  const badge = await fetchCredentialAt(env, url, budget);
  const report = await verifyPresentedCredential(
    db,
    env,
    badge.bytes,
    now,
    { fetchedAs: badge.answer.mediaType ?? '' },
    { budget, answer: badge.answer },
  );
  return { report, badge };
}
