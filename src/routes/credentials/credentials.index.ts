import { createRouter } from '../../http/create-app';
import type { AppRouteHandler } from '../../http/types';
import { verifyPresented } from '../v1/credentials/credentials.handlers';
import * as routes from './credentials.routes';

const verify: AppRouteHandler<typeof routes.verifyCredentialPublic> = async (c) =>
  c.json(await verifyPresented(c.env, c.var.db, c.req, c.req.valid('json')), 200);

/** `POST /api/credentials/verify`: the credential verifier without an API key, for the /verify page. */
export const credentialsRouter = createRouter().openapi(routes.verifyCredentialPublic, verify);
