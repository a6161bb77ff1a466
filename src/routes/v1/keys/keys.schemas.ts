import { z } from '@hono/zod-openapi';
import { API_KEY_SCOPES } from '../../../db/schema';

/**
 * The scopes `/api/v1/keys/self` lists in `scopes`: the AI pillars, as the frozen v1 contract
 * documents them (a value added to a response enum would break clients that switch over it).
 * Scopes added since are listed in `otherScopes`.
 */
export const PILLAR_SCOPES = [
  'playbooks:generate',
  'integrity:check',
  'rubrics:generate',
] as const satisfies readonly (typeof API_KEY_SCOPES)[number][];
export const ScopeSchema = z.enum(PILLAR_SCOPES).openapi('ApiKeyScope');

/** Every scope a key may be issued with (the admin API). */
export const AnyScopeSchema = z.enum(API_KEY_SCOPES).openapi('AnyApiKeyScope', {
  description:
    "The AI pillars, `webhooks:manage` (an organisation's webhook endpoints: `/api/v1/webhooks`) and " +
    "`credentials:verify` (checking any issuer's Open Badges 3.0 credential: `/api/v1/credentials/verify`).",
});

/**
 * The values `otherScopes` may hold, frozen with the v1 contract (a value added to a response enum
 * breaks clients that switch over it). Scopes added later appear only in `grantedScopes`.
 */
export const V1_SCOPES = [
  'playbooks:generate',
  'integrity:check',
  'rubrics:generate',
  'webhooks:manage',
] as const satisfies readonly (typeof API_KEY_SCOPES)[number][];
export const isV1OtherScope = (s: string): s is (typeof V1_SCOPES)[number] =>
  (V1_SCOPES as readonly string[]).includes(s) && !isPillarScope(s);

export const isPillarScope = (s: string): s is (typeof PILLAR_SCOPES)[number] =>
  (PILLAR_SCOPES as readonly string[]).includes(s);

export const KeySelfSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(ScopeSchema).openapi({ description: 'The AI pillars the key may call.' }),
    otherScopes: z.array(z.enum(V1_SCOPES)).openapi({
      description: 'Scopes beyond the pillars, e.g. `webhooks:manage`.',
    }),
    grantedScopes: z.array(z.string()).openapi({
      description:
        'Every scope the key has, as plain strings (an open set: scopes added after v1, such as ' +
        '`credentials:verify`, appear only here).',
    }),
    organisationId: z.string().nullable().openapi({ description: 'The organisation the key belongs to.' }),
    rateLimit: z.object({ limit: z.number().int(), windowSeconds: z.number().int() }),
    expiresAt: z.string().datetime().nullable().openapi({
      description: 'When the key stops working (401 `unauthenticated`, saying it expired); null: never.',
    }),
    replacedByRoll: z.boolean().openapi({
      description:
        'true when the `X-Service-Key` sent is the one a roll replaced: it works only until `sentKeyExpiresAt`, so deploy the new one.',
    }),
    sentKeyExpiresAt: z
      .string()
      .datetime()
      .nullable()
      .openapi({
        description:
          "When the `X-Service-Key` sent stops working: the end of a roll's grace period for a replaced one, else the key's " +
          '`expiresAt`; null: never.',
      }),
  })
  .openapi('ApiKeySelf');
