import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { ApiKeyScope, Role } from '../db/schema';

/** The authenticated session user, set by the session middleware. */
export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  sessionId: string;
};

/** The authenticated partner key, set by the API-key middleware. */
export type ApiKeyPrincipal = {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
};

export type AppBindings = {
  Bindings: Env;
  Variables: {
    requestId: string;
    user?: SessionUser;
    apiKey?: ApiKeyPrincipal;
  };
};

export type AppOpenAPI = OpenAPIHono<AppBindings>;
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppBindings>;
