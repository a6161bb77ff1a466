import { createApp } from './lib/create-app';
import { registerSecuritySchemes } from './lib/openapi';
import { agreementRouter } from './routes/agreement/agreement.index';
import { apiKeysRouter } from './routes/api-keys/api-keys.index';
import { authRouter } from './routes/auth/auth.index';
import { meRouter } from './routes/me/me.index';
import { metaRouter } from './routes/meta/meta.index';

/** The whole HTTP API. Feature routers are mounted at the root; each declares full paths. */
export function buildApp() {
  const app = createApp();
  registerSecuritySchemes(app);
  app.route('/', authRouter);
  app.route('/', meRouter);
  app.route('/', apiKeysRouter);
  app.route('/', agreementRouter);
  app.route('/', metaRouter(app));
  return app;
}

export const app = buildApp();
