import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';

export const OAuthGrantSchema = z
  .object({
    id: z.string(),
    clientId: z.string(),
    clientName: z.string().openapi({ description: 'As the client registered it (self-asserted).' }),
    clientUri: z.string().nullable(),
    redirectUris: z.array(z.string()),
    scope: z.array(z.string()),
    grantedAt: z.string().openapi({ format: 'date-time' }),
    lastRefreshedAt: z
      .string()
      .nullable()
      .openapi({
        format: 'date-time',
        description:
          'When the application last renewed its access with its refresh token; null when it never has. Reads with an ' +
          'access token are not recorded.',
      }),
  })
  .openapi('OAuthGrant', {
    description:
      'An application the holder allowed on the authorization page (a consent): who, which scopes, since when.',
  });

const GrantParams = z.object({
  grantId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'grantId', in: 'path' }, description: 'The grant’s id.' }),
});

export const listGrants = defineRoute({
  method: 'get',
  path: '/api/me/oauth-grants',
  operationId: 'listMyOAuthGrants',
  tags: ['Portability'],
  summary: 'Applications the caller allowed to read their credentials',
  description:
    'Every live grant the caller made on the authorization page (`GET /oauth/authorize`), newest first: the ' +
    'client’s name, website and redirect URIs, and the scopes. Each is a processing purpose the caller agreed to.',
  ...sessionAuth(),
  responses: {
    200: { description: 'Newest first.', content: json(z.object({ grants: z.array(OAuthGrantSchema) })) },
  },
});

export const revokeGrant = defineRoute({
  method: 'delete',
  path: '/api/me/oauth-grants/{grantId}',
  operationId: 'revokeMyOAuthGrant',
  tags: ['Portability'],
  summary: 'Revoke an application’s access',
  description:
    'Ends the grant and every access and refresh token issued under it, at once; the application must be authorised ' +
    'again to read anything. Audit-logged. Another person’s grant, or an unknown id, is a 404.',
  ...sessionAuth(),
  request: { params: GrantParams },
  responses: { 204: { description: 'Revoked.' } },
});
