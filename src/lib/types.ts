import type { OpenAPIHono, RouteConfig, RouteConfigToEnv, RouteHandler } from '@hono/zod-openapi';
import type { Database } from '../db/client';
import type { ApiKeyScope, Role } from '../db/schema';
import type { PillarEngine } from '../services/pillars/engine';

/** The authenticated session user, set by the session middleware. */
export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Employers: the organisation they act for. */
  organisationId: string | null;
  /** ISO date; null for accounts from before it was asked (treated as adults). */
  dateOfBirth: string | null;
  sessionId: string;
  /** When this session's sign-in happened (renewals keep it): how recent `recentSignIn` routes ask. */
  signedInAt: Date;
};

/** The authenticated partner key, set by the API-key middleware. */
export type ApiKeyPrincipal = {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  /** The organisation the key acts for (webhooks); null for a key of the platform's own. */
  organisationId: string | null;
  /** A per-key limit below the default; null: the default. */
  ratelimitPerMinute: number | null;
  /** When the key stops working; null: never (absent where no key row was read). */
  expiresAt?: Date | null;
  /** Whether the secret presented is the one a roll replaced (working through its grace period). */
  replacedByRoll?: boolean;
  /** When the secret presented stops working: the roll's grace, or the key's expiry; null: never. */
  sentKeyExpiresAt?: Date | null;
};

/**
 * Per-request variables. `db` and `engine` are put there by the services middleware for every
 * request; `user` and `apiKey` by the auth middleware of the routes that declare it, which
 * narrows them to non-optional for those routes' handlers (see `SessionEnv`, `ApiKeyEnv`).
 */
export type AppVariables = {
  requestId: string;
  db: Database;
  engine: PillarEngine;
  user?: SessionUser;
  apiKey?: ApiKeyPrincipal;
  /** Set by logout and erasure: the session is gone, so its cookie is neither renewed nor kept. */
  sessionEnded?: boolean;
  /** Set by the request envelope on a public read (src/middleware/envelope.ts). */
  publicRead?: boolean;
  /** The rate limit's headers for this response, known before the handler runs (src/middleware/rate-limit.ts). */
  rateLimitHeaders?: Record<string, string>;
  /** The response `finishedResponse` built with every header (src/lib/finished-response.ts). */
  finished?: Response;
};

export type AppBindings = {
  Bindings: Env;
  Variables: AppVariables;
};

/** What a handler behind `sessionAuth(...)` sees: the user is always there. */
export type SessionEnv = { Bindings: Env; Variables: AppVariables & { user: SessionUser } };
/** What a handler behind `apiKeyAuth(...)` sees: the key is always there. */
export type ApiKeyEnv = { Bindings: Env; Variables: AppVariables & { apiKey: ApiKeyPrincipal } };

export type AppOpenAPI = OpenAPIHono<AppBindings>;
/** A handler typed from its route, including the variables its auth middleware guarantees. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppBindings & RouteConfigToEnv<R>>;
