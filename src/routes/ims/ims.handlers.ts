import type { Context } from 'hono';
import type { AppRouteHandler } from '../../http/types';
import type { AppBindings } from '../../middleware/context';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { holderSubjectId } from '../../services/credentials';
import { clrServiceDescription, serviceDescription } from '../../services/portability/discovery';
import {
  activeHolder,
  holderCredentialsPage,
  pagingLinks,
} from '../../services/portability/holder-credentials';
import { imsxResponse } from '../../services/portability/imsx';
import { signedLearnerRecord } from '../../services/portability/learner-record';
import { bearerToken, CLR_SCOPES, OB_SCOPES, resolveBearer } from '../../services/portability/oauth';
import type * as routes from './ims.routes';

const CHALLENGE = 'Bearer realm="ims"';

/**
 * The holder a bearer token stands for, when it carries `scope`; otherwise the refusal to send
 * (401 without a valid token, 403 without the scope), in the Open Badges API's error shape.
 */
async function authorise(
  c: Context<AppBindings>,
  scope: string,
): Promise<{ holder: NonNullable<Awaited<ReturnType<typeof activeHolder>>> } | { refusal: Response }> {
  const token = bearerToken(c.req.header('Authorization'));
  if (!token)
    return {
      refusal: imsxResponse(401, 'unauthorizedrequest', 'An OAuth 2.0 access token is required.', {
        'WWW-Authenticate': CHALLENGE,
      }),
    };
  const grant = await resolveBearer(c.env, token);
  const holder = grant ? await activeHolder(c.var.db, grant.userId) : null;
  if (!grant || !holder)
    return {
      refusal: imsxResponse(401, 'unauthorizedrequest', 'The access token is unknown, expired or revoked.', {
        'WWW-Authenticate': `${CHALLENGE}, error="invalid_token"`,
      }),
    };
  if (!grant.scope.includes(scope))
    return {
      refusal: imsxResponse(403, 'forbidden', `The access token does not carry the scope ${scope}.`, {
        'WWW-Authenticate': `${CHALLENGE}, error="insufficient_scope", scope="${scope}"`,
      }),
    };
  return { holder };
}

/** Counts the request against the holder's per-user limit (429 as `Imsx_StatusInfo` via src/index.ts). */
async function limited(c: Context<AppBindings>, holderId: string, respond: () => Promise<Response>) {
  let response: Response | undefined;
  await enforceRateLimit(c, 'user', holderId, async () => {
    response = await respond();
  });
  const out = response as Response;
  for (const [name, value] of Object.entries(c.get('rateLimitHeaders') ?? {})) out.headers.set(name, value);
  return out;
}

export const discovery: AppRouteHandler<typeof routes.getServiceDescription> = async (c) =>
  c.json(serviceDescription(c.env), 200, { 'Cache-Control': 'public, max-age=3600' });

export const clrDiscovery: AppRouteHandler<typeof routes.getClrServiceDescription> = async (c) =>
  c.json(clrServiceDescription(c.env), 200, { 'Cache-Control': 'public, max-age=3600' });

const INTEGER = /^(0|[1-9][0-9]{0,8})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export const credentials: AppRouteHandler<typeof routes.getCredentials> = async (c) => {
  const auth = await authorise(c, OB_SCOPES.credentialReadonly);
  if ('refusal' in auth) return auth.refusal as never;
  const query = c.req.valid('query');
  const limit = query.limit === undefined ? 20 : INTEGER.test(query.limit) ? Number(query.limit) : Number.NaN;
  const offset =
    query.offset === undefined ? 0 : INTEGER.test(query.offset) ? Number(query.offset) : Number.NaN;
  const since =
    query.since === undefined ? undefined : DATE_TIME.test(query.since) ? new Date(query.since) : null;
  const invalid = !(limit >= 1 && limit <= 100)
    ? 'limit must be an integer from 1 to 100.'
    : !(offset >= 0)
      ? 'offset must be a non-negative integer.'
      : since === null || (since !== undefined && Number.isNaN(since.getTime()))
        ? 'since must be an ISO 8601 date-time, e.g. 2026-01-01T00:00:00Z.'
        : null;
  if (invalid) return imsxResponse(400, 'invalid_query_parameter', invalid) as never;
  return (await limited(c, auth.holder.id, async () => {
    const page = await holderCredentialsPage(c.var.db, auth.holder.id, {
      limit,
      offset,
      ...(since ? { since } : {}),
    });
    return Response.json(
      { credential: page.dataIntegrity, compactJwsString: page.jwts },
      {
        headers: {
          'X-Total-Count': String(page.total),
          Link: pagingLinks(new URL(c.req.url), { limit, offset, total: page.total }),
          'Cache-Control': 'no-store',
        },
      },
    );
  })) as never;
};

export const profile: AppRouteHandler<typeof routes.getProfile> = async (c) => {
  const auth = await authorise(c, OB_SCOPES.profileReadonly);
  if ('refusal' in auth) return auth.refusal as never;
  return (await limited(c, auth.holder.id, async () => {
    const subject = auth.holder.subjectId ?? (await holderSubjectId(c.var.db, auth.holder.id));
    return Response.json(
      {
        '@context': ['https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'],
        id: `urn:uuid:${subject}`,
        type: ['Profile'],
        name: auth.holder.name,
      },
      { headers: { 'Cache-Control': 'no-store' } },
    );
  })) as never;
};

export const clrCredentials: AppRouteHandler<typeof routes.getClrCredentials> = async (c) => {
  const auth = await authorise(c, CLR_SCOPES.credentialReadonly);
  if ('refusal' in auth) return auth.refusal as never;
  return (await limited(c, auth.holder.id, async () => {
    const record = await signedLearnerRecord(c.var.db, c.env, auth.holder.id);
    return Response.json(
      { compactJwsString: record ? [record.jwt] : [] },
      { headers: { 'X-Total-Count': record ? '1' : '0', 'Cache-Control': 'no-store' } },
    );
  })) as never;
};
