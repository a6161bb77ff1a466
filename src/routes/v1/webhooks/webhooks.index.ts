import { apiKeyAuth } from '../../../http/route-auth';
import { keyActor } from '../../../services/webhooks/actors';
import { webhookRouter } from '../../webhooks/webhooks.handlers';

/** `/api/v1/webhooks`: a partner key acting for an organisation manages its webhook endpoints (docs/webhooks.md). */
export const webhooksRouter = webhookRouter({
  path: '/api/v1/webhooks',
  operationQualifier: '',
  who:
    'API key with `webhooks:manage` that acts for an organisation (a key without one is a 403); ' +
    "the organisation's endpoints only.",
  auth: apiKeyAuth('webhooks:manage'),
  actor: (vars) => keyActor(vars.apiKey),
});
