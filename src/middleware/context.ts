/** The per-request context the middleware fills and every handler reads. */
import type { Database } from '../db/client';
import type { ApiKeyPrincipal, SessionUser } from '../lib/principals';
import type { PillarEngine } from '../services/pillars/engine';

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
  /** The response `finishedResponse` built with every header (src/http/finished-response.ts). */
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
