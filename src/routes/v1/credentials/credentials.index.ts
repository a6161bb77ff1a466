import { createRouter } from '../../../http/create-app';
import type { AppRouteHandler } from '../../../http/types';
import { verifyPresented } from './credentials.handlers';
import * as routes from './credentials.routes';

const verify: AppRouteHandler<typeof routes.verifyCredentialV1> = async (c) =>
  c.json(await verifyPresented(c.env, c.var.db, c.req, c.req.valid('json')), 200);

export const credentialsV1Router = createRouter().openapi(routes.verifyCredentialV1, verify);
