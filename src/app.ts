import { createApp } from './lib/create-app';
import { registerSecuritySchemes } from './lib/openapi';
import { agreementRouter } from './routes/agreement/agreement.index';
import { apiKeysRouter } from './routes/api-keys/api-keys.index';
import { authRouter } from './routes/auth/auth.index';
import { briefsRouter } from './routes/briefs/briefs.index';
import { certificatesRouter } from './routes/certificates/certificates.index';
import { consentRouter } from './routes/consent/consent.index';
import { dsrRouter } from './routes/dsr/dsr.index';
import { evaluationsRouter } from './routes/evaluations/evaluations.index';
import { leaderboardRouter } from './routes/leaderboard/leaderboard.index';
import { meRouter } from './routes/me/me.index';
import { metaRouter } from './routes/meta/meta.index';
import { metricsRouter } from './routes/metrics/metrics.index';
import { pagesRouter } from './routes/pages/pages.index';
import { pillarsRouter } from './routes/pillars/pillars.index';
import { submissionsRouter } from './routes/submissions/submissions.index';

/** The whole HTTP API. Feature routers are mounted at the root; each declares full paths. */
export function buildApp() {
  const app = createApp();
  registerSecuritySchemes(app);
  app.route('/', authRouter);
  app.route('/', meRouter);
  app.route('/', apiKeysRouter);
  app.route('/', pillarsRouter);
  app.route('/', briefsRouter);
  app.route('/', submissionsRouter);
  app.route('/', evaluationsRouter);
  app.route('/', certificatesRouter);
  app.route('/', leaderboardRouter);
  app.route('/', agreementRouter);
  app.route('/', consentRouter);
  app.route('/', dsrRouter);
  app.route('/', metricsRouter);
  app.route('/', pagesRouter);
  app.route('/', metaRouter(app));
  return app;
}

export const app = buildApp();
