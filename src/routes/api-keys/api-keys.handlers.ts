import { getDb } from '../../db/client';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import { RATE_LIMITS } from '../../middleware/rate-limit';
import * as apiKeys from '../../services/api-keys';
import type * as routes from './api-keys.routes';

export const create: AppRouteHandler<typeof routes.createApiKey> = async (c) => {
  const { name, scopes } = c.req.valid('json');
  const { key, view } = await apiKeys.issueApiKey(getDb(c.env.DB), {
    name,
    scopes,
    createdBy: c.get('user')!.id,
  });
  return c.json({ ...view, key }, 201);
};

export const list: AppRouteHandler<typeof routes.listApiKeys> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await apiKeys.listApiKeys(getDb(c.env.DB), limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(apiKeys.toApiKeyView), nextCursor: page.nextCursor }, 200);
};

export const revoke: AppRouteHandler<typeof routes.revokeApiKey> = async (c) => {
  const row = await apiKeys.revokeApiKey(getDb(c.env.DB), c.req.valid('param').id);
  if (!row) throw new ProblemError('not-found', 'No API key with this id.');
  return c.json(apiKeys.toApiKeyView(row), 200);
};

export const self: AppRouteHandler<typeof routes.getKeySelf> = (c) => {
  const key = c.get('apiKey')!;
  return c.json(
    { id: key.id, name: key.name, scopes: key.scopes, rateLimit: { ...RATE_LIMITS.apikey } },
    200,
  );
};
