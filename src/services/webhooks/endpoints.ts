/**
 * An organisation's webhook endpoints: registration, changes, secret rotation (docs/webhooks.md).
 * Every function takes the caller's organisation and finds only its own endpoints: another
 * organisation's endpoint "does not exist" (404). A suspended organisation registers no endpoint
 * and changes none (403 `organisation-suspended`) until the platform reviews it again; it may
 * still read, disable, delete, ping and rotate the secrets of the ones it has, which send nothing
 * anywhere new (decision 0132).
 */
import { and, count, desc, eq, not, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { organisations, type WebhookEventType, webhookEndpoints } from '../../db/schema';
import { PREVIOUS_SECRET_GRACE_MS } from '../../domain/webhooks/schedule';
import { generateSecret } from '../../domain/webhooks/signing';
import { checkTargetUrl } from '../../domain/webhooks/targets';
import { olderThan, type Position } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { auditInsert } from '../audit';
import { isLoopbackBase } from '../mail';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** Who acts: an employer (user id) or a partner API key; recorded in the audit entries. */
export type WebhookActor = { organisationId: string; userId: string | null; apiKeyId: string | null };

/**
 * The development allowance for `http://localhost` targets (wrangler.toml
 * `WEBHOOKS_ALLOW_HTTP_LOCALHOST`), honoured only when the service itself runs on this machine
 * (`PUBLIC_BASE_URL` a loopback address): a deployment that ships the switch by mistake (a deploy
 * without `--env production`) still reaches no loopback address. `GET /api/health` reports it.
 */
export const allowHttpLocalhost = (env: Pick<Env, 'WEBHOOKS_ALLOW_HTTP_LOCALHOST' | 'PUBLIC_BASE_URL'>) =>
  env.WEBHOOKS_ALLOW_HTTP_LOCALHOST === 'true' && isLoopbackBase(env.PUBLIC_BASE_URL);

/**
 * How many endpoints an organisation may have, enabled or not. Each event goes to every
 * subscribed endpoint and each failing delivery is tried 8 times, so the bound caps how many
 * requests one event can make (several endpoints may share a URL).
 */
export const MAX_ENDPOINTS_PER_ORGANISATION = 20;

const tooManyEndpoints = () =>
  new ProblemError(
    'conflict',
    `An organisation may have at most ${MAX_ENDPOINTS_PER_ORGANISATION} webhook endpoints (disabled ones ` +
      'included), and this one has reached it. Delete an endpoint it no longer uses, or subscribe an existing ' +
      'one to more event types.',
  );

/** SQL: the organisation is suspended, read inside the write's own batch (a suspension that lands first wins). */
const organisationSuspended = (organisationId: string) =>
  sql`exists (select 1 from ${organisations} where ${organisations.id} = ${organisationId} and ${organisations.verification} = 'suspended')`;

const suspendedOrganisation = (what: string) =>
  new ProblemError(
    'organisation-suspended',
    `This organisation is suspended by the platform and cannot ${what} until an admin reviews it again; ` +
      'its existing endpoints can still be read, disabled, deleted, pinged and given a new secret. Contact the platform.',
  );

async function assertNotSuspended(db: Database, organisationId: string, what: string): Promise<void> {
  const [row] = await db
    .select({ verification: organisations.verification })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .limit(1);
  if (row?.verification === 'suspended') throw suspendedOrganisation(what);
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const endpointView = (e: EndpointRow, now = new Date()) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  eventTypes: e.eventTypes,
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  disabledAt: iso(e.disabledAt),
  failingSince: iso(e.failingSince),
  rotationEndsAt:
    e.previousSecretExpiresAt && e.previousSecretExpiresAt > now
      ? e.previousSecretExpiresAt.toISOString()
      : null,
  createdAt: e.createdAt.toISOString(),
  updatedAt: iso(e.updatedAt),
});
export type EndpointView = ReturnType<typeof endpointView>;

/** Refuses a target that is not https or points at a non-public address (422, pointing at `url`). */
export function requireTargetUrl(
  env: Pick<Env, 'WEBHOOKS_ALLOW_HTTP_LOCALHOST' | 'PUBLIC_BASE_URL'>,
  url: string,
): string {
  const check = checkTargetUrl(url, { allowHttpLocalhost: allowHttpLocalhost(env) });
  if (!check.ok)
    throw new ProblemError('validation-failed', check.reason, {
      errors: [{ pointer: '#/url', detail: check.reason }],
    });
  return check.url.href;
}

const audit = (
  db: Database,
  actor: WebhookActor,
  action: string,
  id: string,
  details: Record<string, unknown>,
) =>
  auditInsert(db, {
    actorId: actor.userId,
    action,
    targetType: 'webhook_endpoint',
    targetId: id,
    details: {
      organisationId: actor.organisationId,
      ...(actor.apiKeyId ? { apiKeyId: actor.apiKeyId } : {}),
      ...details,
    },
  });

export async function createEndpoint(
  db: Database,
  env: Pick<Env, 'WEBHOOKS_ALLOW_HTTP_LOCALHOST' | 'PUBLIC_BASE_URL'>,
  actor: WebhookActor,
  input: {
    url: string;
    description?: string | null | undefined;
    eventTypes: WebhookEventType[];
    enabled?: boolean | undefined;
  },
  now = new Date(),
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const url = requireTargetUrl(env, input.url);
  await assertNotSuspended(db, actor.organisationId, 'register webhook endpoints');
  const ofOrganisation = eq(webhookEndpoints.organisationId, actor.organisationId);
  const [held] = await db.select({ n: count() }).from(webhookEndpoints).where(ofOrganisation);
  if ((held?.n ?? 0) >= MAX_ENDPOINTS_PER_ORGANISATION) throw tooManyEndpoints();
  const id = crypto.randomUUID();
  const secret = generateSecret();
  const enabled = input.enabled ?? true;
  const [[endpoint], , overLimit] = await db.batch([
    db
      .insert(webhookEndpoints)
      .values({
        id,
        organisationId: actor.organisationId,
        url,
        description: input.description ?? null,
        eventTypes: [...new Set(input.eventTypes)],
        enabled,
        disabledReason: enabled ? null : 'manual',
        disabledAt: enabled ? null : now,
        secret,
        createdAt: now,
      })
      .returning(),
    audit(db, actor, 'webhook_endpoint.created', id, { url }),
    // Concurrent registrations may all pass the count above; in the batch (one transaction) the
    // count is exact, and a registration that took the organisation over the bound is undone, as
    // is one that a suspension overtook after the check above.
    db
      .delete(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.id, id),
          or(
            sql`(select count(*) from ${webhookEndpoints} where ${ofOrganisation}) > ${MAX_ENDPOINTS_PER_ORGANISATION}`,
            organisationSuspended(actor.organisationId),
          ),
        ),
      )
      .returning({ id: webhookEndpoints.id }),
  ]);
  if (overLimit.length > 0) {
    const [org] = await db
      .select({ verification: organisations.verification })
      .from(organisations)
      .where(eq(organisations.id, actor.organisationId))
      .limit(1);
    const isSuspended = org?.verification === 'suspended';
    await audit(db, actor, 'webhook_endpoint.deleted', id, {
      reason: isSuspended ? 'the organisation was suspended' : 'over the endpoint limit',
    });
    throw isSuspended ? suspendedOrganisation('register webhook endpoints') : tooManyEndpoints();
  }
  return { endpoint: endpoint!, secret };
}

export async function listEndpoints(db: Database, organisationId: string, limit: number, after?: Position) {
  return db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.organisationId, organisationId),
        after ? olderThan(webhookEndpoints, after) : undefined,
      ),
    )
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
    .limit(limit + 1);
}

/** The organisation's endpoint, or a 404 (another organisation's endpoint is not disclosed). */
export async function ownEndpoint(db: Database, organisationId: string, id: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organisationId, organisationId)))
    .limit(1);
  if (!row) throw new ProblemError('not-found', 'No webhook endpoint with this id.');
  return row;
}

export async function updateEndpoint(
  db: Database,
  env: Pick<Env, 'WEBHOOKS_ALLOW_HTTP_LOCALHOST' | 'PUBLIC_BASE_URL'>,
  actor: WebhookActor,
  id: string,
  input: {
    url?: string | undefined;
    description?: string | null | undefined;
    eventTypes?: WebhookEventType[] | undefined;
    enabled?: boolean | undefined;
  },
  now = new Date(),
): Promise<EndpointRow> {
  const current = await ownEndpoint(db, actor.organisationId, id);
  const url = input.url === undefined ? undefined : requireTargetUrl(env, input.url);
  // Enabling again starts the failure clock afresh; disabling by hand records why.
  const enabling = input.enabled === true && !current.enabled;
  const disabling = input.enabled === false && current.enabled;
  // Only disabling is open to a suspended organisation: it sends nothing anywhere new.
  const onlyDisables = Object.entries(input).every(
    ([k, v]) => v === undefined || (k === 'enabled' && v === false),
  );
  if (!onlyDisables) await assertNotSuspended(db, actor.organisationId, 'change webhook endpoints');
  const [[row]] = await db.batch([
    db
      .update(webhookEndpoints)
      .set({
        ...(url !== undefined ? { url } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.eventTypes !== undefined ? { eventTypes: [...new Set(input.eventTypes)] } : {}),
        ...(enabling ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null } : {}),
        ...(disabling ? { enabled: false, disabledReason: 'manual' as const, disabledAt: now } : {}),
        updatedAt: now,
      })
      .where(
        and(
          eq(webhookEndpoints.id, id),
          eq(webhookEndpoints.organisationId, actor.organisationId),
          onlyDisables ? undefined : not(organisationSuspended(actor.organisationId)),
        ),
      )
      .returning(),
    audit(db, actor, 'webhook_endpoint.updated', id, {
      fields: Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined),
    }),
  ]);
  if (!row) {
    // A suspension that landed after the check above: nothing was changed.
    if (!onlyDisables) await assertNotSuspended(db, actor.organisationId, 'change webhook endpoints');
    throw new ProblemError('not-found', 'No webhook endpoint with this id.');
  }
  return row;
}

export async function deleteEndpoint(db: Database, actor: WebhookActor, id: string): Promise<void> {
  await ownEndpoint(db, actor.organisationId, id);
  await db.batch([
    db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organisationId, actor.organisationId))),
    audit(db, actor, 'webhook_endpoint.deleted', id, {}),
  ]);
}

/**
 * A new secret; the current one keeps signing (beside the new one) for 24 hours, so receivers
 * can switch without losing a message. Rotating again within those hours ends the older one.
 */
export async function rotateSecret(
  db: Database,
  actor: WebhookActor,
  id: string,
  now = new Date(),
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const current = await ownEndpoint(db, actor.organisationId, id);
  const secret = generateSecret();
  const [[endpoint]] = await db.batch([
    db
      .update(webhookEndpoints)
      .set({
        secret,
        previousSecret: current.secret,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
        updatedAt: now,
      })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.secret, current.secret)))
      .returning(),
    audit(db, actor, 'webhook_endpoint.secret_rotated', id, {}),
  ]);
  if (!endpoint) throw new ProblemError('conflict', 'The secret was rotated meanwhile; try again.');
  return { endpoint, secret };
}

/** The secrets that sign a message now: the current one, and the previous one during its grace period. */
export function signingSecrets(e: EndpointRow, now: Date): string[] {
  return e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > now
    ? [e.secret, e.previousSecret]
    : [e.secret];
}
