/** Who manages webhooks: a partner key acting for an organisation, or an employer of one. */
import type { Database } from '../../db/client';
import type { ApiKeyPrincipal } from '../../lib/principals';
import { ProblemError } from '../../lib/problem';
import { organisationOf } from '../organisations/organisation';
import type { WebhookActor } from './endpoints';

/** A key without an organisation has no endpoints to manage: a 403 that says how to fix it. */
export function keyActor(key: ApiKeyPrincipal): WebhookActor {
  if (!key.organisationId)
    throw new ProblemError(
      'forbidden',
      'This API key does not act for an organisation, so it has no webhook endpoints. Ask for a key issued ' +
        'with an organisationId.',
    );
  return { organisationId: key.organisationId, userId: null, apiKeyId: key.id };
}

export async function userActor(db: Database, user: { id: string }): Promise<WebhookActor> {
  const organisation = await organisationOf(db, user.id);
  return { organisationId: organisation.id, userId: user.id, apiKeyId: null };
}
