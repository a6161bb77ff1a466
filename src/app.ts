import { createApp } from './http/create-app';
import { registerSecuritySchemes } from './http/openapi';
import { adminRouter } from './routes/admin/admin.index';
import { agreementRouter } from './routes/agreement/agreement.index';
import { authRouter } from './routes/auth/auth.index';
import { briefsRouter } from './routes/briefs/briefs.index';
import { certificatesRouter } from './routes/certificates/certificates.index';
import { consentRouter } from './routes/consent/consent.index';
import { credentialsRouter } from './routes/credentials/credentials.index';
import { digilockerRouter } from './routes/digilocker/digilocker.index';
import { dpoRouter } from './routes/dpo/dpo.index';
import { dsrRouter } from './routes/dsr/dsr.index';
import { evaluationsRouter } from './routes/evaluations/evaluations.index';
import { guardianRouter } from './routes/guardian/guardian.index';
import { healthRouter } from './routes/health/health.index';
import { imsRouter } from './routes/ims/ims.index';
import { issuersRouter } from './routes/issuers/issuers.index';
import { leaderboardRouter } from './routes/leaderboard/leaderboard.index';
import { myDigiLockerRouter } from './routes/me/digilocker.index';
import { learnerRecordRouter } from './routes/me/learner-record.index';
import { meRouter } from './routes/me/me.index';
import { oauthGrantsRouter } from './routes/me/oauth-grants.index';
import { sendToHostRouter } from './routes/me/send-to-host.index';
import { metaRouter } from './routes/meta/meta.index';
import { oauthRouter } from './routes/oauth/oauth.index';
import { obRouter } from './routes/ob/ob.index';
import { oid4vciRouter } from './routes/oid4vci/oid4vci.index';
import { mePageRouter } from './routes/pages/me.index';
import { pagesRouter } from './routes/pages/pages.index';
import { rubricsRouter } from './routes/rubrics/rubrics.index';
import { submissionsRouter } from './routes/submissions/submissions.index';
import { credentialsV1Router } from './routes/v1/credentials/credentials.index';
import { integrityRouter } from './routes/v1/integrity/integrity.index';
import { keysRouter } from './routes/v1/keys/keys.index';
import { playbooksRouter } from './routes/v1/playbooks/playbooks.index';
import { rubricsV1Router } from './routes/v1/rubrics/rubrics.index';
import { webhooksRouter } from './routes/v1/webhooks/webhooks.index';
import { organisationWebhooksRouter } from './routes/webhooks/webhooks.index';
// The Hindi catalogue registers itself: the app's pages read it at once (a cold isolate's
// certificate page loads it only for a visitor who asks for Hindi: decision 0328).
import './routes/pages/i18n/hi';
// The job kinds register themselves; requests create jobs of them.
import './services/jobs/kinds';

/**
 * The whole HTTP API. Feature routers are mounted at the root; each declares full paths, and
 * each lives in `src/routes/<first path segment>/` (`/api/v1/<resource>` in `routes/v1/<resource>/`).
 * The order here is the order of the OpenAPI document and the README's endpoint table.
 */
export function buildApp() {
  const app = createApp();
  registerSecuritySchemes(app);
  app.route('/', authRouter);
  app.route('/', meRouter);
  app.route('/', oauthGrantsRouter);
  app.route('/', learnerRecordRouter);
  app.route('/', sendToHostRouter);
  app.route('/', myDigiLockerRouter);
  app.route('/', guardianRouter);
  app.route('/', adminRouter);
  app.route('/', keysRouter);
  app.route('/', playbooksRouter);
  app.route('/', rubricsV1Router);
  app.route('/', rubricsRouter);
  app.route('/', integrityRouter);
  app.route('/', webhooksRouter);
  app.route('/', credentialsV1Router);
  app.route('/', organisationWebhooksRouter);
  app.route('/', briefsRouter);
  app.route('/', submissionsRouter);
  app.route('/', evaluationsRouter);
  app.route('/', certificatesRouter);
  app.route('/', obRouter);
  app.route('/', issuersRouter);
  app.route('/', oid4vciRouter);
  app.route('/', credentialsRouter);
  app.route('/', imsRouter);
  app.route('/', oauthRouter);
  app.route('/', leaderboardRouter);
  app.route('/', agreementRouter);
  app.route('/', consentRouter);
  app.route('/', dsrRouter);
  app.route('/', dpoRouter);
  app.route('/', digilockerRouter);
  app.route('/', healthRouter);
  app.route('/', pagesRouter);
  app.route('/', mePageRouter);
  app.route('/', metaRouter(app));
  return app;
}

export const app = buildApp();

/**
 * The app's fetch as built, taken once when this module is evaluated: what the Worker's entry
 * (src/index.ts) serves once it has imported the app lazily. A later reassignment of `app.fetch`
 * (test/response-validation.setup.ts wraps it for tests that call the app directly) is not the
 * entry's: its answers are checked after the entry's own mapping (the `/ims/` errors'
 * `Imsx_StatusInfo`), by `call()`, as when the entry imported the app statically.
 */
export const serveApp: typeof app.fetch = app.fetch;
