import type { MiddlewareHandler } from 'hono';
import type { DeclaredImage } from '../../../domain/open-badges/presented';
import { ProblemError } from '../../../lib/problem';
import { verifyPresentedCredential } from '../../../services/credential-verifier';
import { verifyCredentialAt } from '../../../services/verifier/credential-url';

type PresentedBody = {
  credential?: string | Record<string, unknown> | undefined;
  badge?: string | undefined;
  url?: string | undefined;
};

const ONE_OF = 'Send exactly one of credential, badge and url.';

/** The bytes of `{credential}` (text) or `{badge}` (base64), or a 422. */
function presentedBytes(body: Omit<PresentedBody, 'url'>): Uint8Array {
  if (body.credential !== undefined)
    return new TextEncoder().encode(
      typeof body.credential === 'string' ? body.credential : JSON.stringify(body.credential),
    );
  const base64 = (body.badge ?? '').replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  try {
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    throw new ProblemError('validation-failed', 'badge is not base64.', {
      errors: [{ pointer: '#/badge', detail: 'Not base64.' }],
    });
  }
}

/** The media types a credential may be sent as: JSON, or a baked badge's own bytes. */
const IMAGE_TYPES: Record<string, DeclaredImage> = { 'image/png': 'png', 'image/svg+xml': 'svg' };
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;

const essenceOf = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/**
 * Before the JSON validator: a body sent as `image/png` or `image/svg+xml` is a baked badge's
 * bytes (refused when empty: 400 `empty-body`); any other declared type is a 415 that names the
 * three accepted. The body limit (413) has run before, on every `/api/` route.
 */
export const presentedMediaType: MiddlewareHandler = async (c, next) => {
  const contentType = c.req.header('content-type');
  if (contentType !== undefined) {
    const essence = essenceOf(contentType);
    if (IMAGE_TYPES[essence]) {
      if ((await c.req.arrayBuffer()).byteLength === 0)
        throw new ProblemError('empty-body', `The ${essence} body is empty: send the baked badge's bytes.`);
    } else if (!JSON_TYPE.test(essence))
      throw new ProblemError(
        'unsupported-media-type',
        'Send the credential as JSON ({"credential": …}, {"badge": base64} or {"url": …}) with Content-Type: application/json, ' +
          `or a baked badge's bytes with Content-Type: image/png or image/svg+xml (this one is ${contentType.slice(0, 100)}).`,
      );
  }
  await next();
};

/** Shared by the v1 route and the public one the /verify page calls: the JSON body, or the image bytes. */
export async function verifyPresented(
  env: Env,
  db: Parameters<typeof verifyPresentedCredential>[0],
  req: { header(name: 'content-type'): string | undefined; arrayBuffer(): Promise<ArrayBuffer> },
  /** The validated JSON body; the image entries' (string) type only exists for the type checker. */
  json: PresentedBody | string,
) {
  const declared = IMAGE_TYPES[essenceOf(req.header('content-type') ?? '')];
  if (declared)
    return verifyPresentedCredential(db, env, new Uint8Array(await req.arrayBuffer()), new Date(), declared);
  const body = typeof json === 'string' ? {} : json;
  if ([body.credential, body.badge, body.url].filter((v) => v !== undefined).length !== 1)
    throw new ProblemError('validation-failed', ONE_OF, {
      errors: [{ pointer: '#/credential', detail: ONE_OF }],
    });
  if (body.url !== undefined) return (await verifyCredentialAt(db, env, body.url)).report;
  return verifyPresentedCredential(db, env, presentedBytes(body));
}
