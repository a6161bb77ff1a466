import { dpoContact } from '../../domain/dpo';
import type { AppRouteHandler } from '../../http/types';
import type * as routes from './dpo.routes';

export const getDpo: AppRouteHandler<typeof routes.getDpo> = (c) =>
  c.json(dpoContact(c.env), 200, { 'Cache-Control': 'public, max-age=3600' });
