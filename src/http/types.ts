import type { OpenAPIHono, RouteConfig, RouteConfigToEnv, RouteHandler } from '@hono/zod-openapi';
import type { AppBindings } from '../middleware/context';

export type AppOpenAPI = OpenAPIHono<AppBindings>;
/** A handler typed from its route, including the variables its auth middleware guarantees. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppBindings & RouteConfigToEnv<R>>;
