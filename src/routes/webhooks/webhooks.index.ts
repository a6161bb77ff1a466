import { sessionAuth } from '../../http/route-auth';
import { userActor } from '../../services/webhooks/actors';
import { webhookRouter } from './webhooks.handlers';

/** `/api/webhooks`: an organisation's employers manage its webhook endpoints (docs/webhooks.md). */
export const organisationWebhooksRouter = webhookRouter({
  path: '/api/webhooks',
  operationQualifier: 'Organisation',
  who:
    'Employers, for their organisation (the same as `/api/v1/webhooks` for partner keys); ' +
    "the organisation's endpoints only.",
  auth: sessionAuth('employer'),
  actor: (vars) => userActor(vars.db, vars.user),
});
