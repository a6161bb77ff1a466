import type { AppRouteHandler } from '../../../http/types';
import type * as routes from './playbooks.routes';

export const generate: AppRouteHandler<typeof routes.generatePlaybook> = async (c) => {
  const { result, engine, fallbackReason } = await c.var.engine.generatePlaybook(c.req.valid('json'));
  return c.json({ ...result, engine, fallbackReason }, 200);
};
