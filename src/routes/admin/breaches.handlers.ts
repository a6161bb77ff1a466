import type { AppRouteHandler } from '../../http/types';
import * as breaches from '../../services/breaches';
import type * as routes from './breaches.routes';

export const create: AppRouteHandler<typeof routes.createBreach> = async (c) =>
  c.json(await breaches.recordBreach(c.var.db, c.env, c.var.user.id, c.req.valid('json')), 201);

export const list: AppRouteHandler<typeof routes.listBreaches> = async (c) =>
  c.json({ items: await breaches.listBreaches(c.var.db, c.req.valid('query').overdue === 'true') }, 200);

export const markBoardStep: AppRouteHandler<typeof routes.markBreachBoardStep> = async (c) =>
  c.json(
    await breaches.markBoardStep(c.var.db, c.var.user.id, c.req.valid('param').id, c.req.valid('json').step),
    200,
  );
