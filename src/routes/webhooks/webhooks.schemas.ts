import { z } from '@hono/zod-openapi';
import { WEBHOOK_DELIVERY_STATES, WEBHOOK_EVENT_TYPES } from '../../db/schema';
import { pageSchema } from '../../lib/paging';

export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES).openapi('WebhookEventType', {
  description:
    '`evaluation.completed` (an AI evaluation of a submission to one of your briefs finished: `completed` or ' +
    '`failed`), `submission.rated` (one of your members rated a submission), `certificate.issued`, ' +
    '`certificate.revoked` (a certificate your organisation issues), `dsr.erasure.completed` (a person whose ' +
    'data your organisation held was erased: the ids to erase on your side).',
});

const url = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .openapi({
    description:
      'Where events are POSTed. `https` only, at a public address: private, loopback, link-local, CGNAT, ' +
      'unique-local, multicast and metadata addresses are refused (IP literals here, host names before each ' +
      'delivery after resolving them). Redirects are not followed.',
    example: 'https://hooks.example.com/verification-platform',
  });
const description = z.string().trim().max(500).nullable().openapi({ example: 'Production receiver' });
const eventTypes = z
  .array(WebhookEventTypeSchema)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .openapi({ example: ['certificate.issued', 'certificate.revoked'] });

export const CreateWebhookSchema = z
  .object({
    url,
    description: description.optional(),
    eventTypes,
    enabled: z.boolean().optional().openapi({ description: 'Default true.' }),
  })
  .strict()
  .openapi('CreateWebhookEndpointRequest');

export const UpdateWebhookSchema = z
  .object({
    url: url.optional(),
    description: description.optional(),
    eventTypes: eventTypes.optional(),
    enabled: z.boolean().optional().openapi({
      description: 'false stops deliveries; true enables it again (also after it was disabled for failing).',
    }),
  })
  .strict()
  .openapi('UpdateWebhookEndpointRequest');

export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(WebhookEventTypeSchema),
    enabled: z.boolean(),
    disabledReason: z.enum(['manual', 'failing']).nullable().openapi({
      description: '`failing`: every attempt failed for 5 days; the organisation was notified.',
    }),
    disabledAt: z.string().datetime().nullable(),
    failingSince: z.string().datetime().nullable().openapi({
      description:
        'The first failed attempt since the last success; null while deliveries succeed. Test pings do not count.',
    }),
    rotationEndsAt: z.string().datetime().nullable().openapi({
      description: 'After a rotation, the old secret also signs until this time.',
    }),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime().nullable(),
  })
  .openapi('WebhookEndpoint');

const secret = z.string().openapi({
  description:
    'The signing secret (`whsec_` + base64). Shown only here: store it now. Verify deliveries with it ' +
    '(Standard Webhooks; e.g. the `standardwebhooks` package).',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

export const CreatedWebhookSchema = WebhookEndpointSchema.extend({ secret }).openapi(
  'CreatedWebhookEndpoint',
);

export const RotatedSecretSchema = z
  .object({ endpoint: WebhookEndpointSchema, secret })
  .openapi('RotatedWebhookSecret');

export const WebhookEndpointPageSchema = pageSchema(WebhookEndpointSchema, 'WebhookEndpointPage');

export const WebhookAttemptSchema = z
  .object({
    attempt: z.number().int().min(1).max(1000),
    trigger: z.enum(['scheduled', 'manual']).openapi({
      description:
        '`scheduled`: the first attempt of an event or a retry; `manual`: a redelivery or a test ping.',
    }),
    attemptedAt: z.string().datetime(),
    statusCode: z.number().int().min(100).max(599).nullable().openapi({
      description: "The receiver's status; null when there was no answer (refused target, timeout, network).",
    }),
    latencyMs: z.number().int().min(0).max(600000).nullable(),
    error: z.string().nullable(),
  })
  .openapi('WebhookAttempt');

export const WebhookDeliverySchema = z
  .object({
    id: z.string(),
    eventId: z.string().openapi({ description: 'The `webhook-id` header of every attempt of it.' }),
    eventType: z.string().openapi({ example: 'certificate.issued' }),
    state: z.enum(WEBHOOK_DELIVERY_STATES).openapi({
      description:
        '`pending` (an attempt is due at `nextAttemptAt`), `succeeded` (a 2xx), `failed` (a redelivery or ' +
        'ping that failed, or the endpoint was disabled), `dead_lettered` (every scheduled attempt failed).',
    }),
    attempts: z.number().int().min(0).max(1000),
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(100)
      .openapi({
        description:
          'How many attempts the automatic schedule makes: 8 for an event, 1 for a `webhook.ping` (never retried). ' +
          'A manual redelivery is one more attempt on top.',
      }),
    lastStatusCode: z.number().int().min(100).max(599).nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().datetime().nullable(),
    deliveredAt: z.string().datetime().nullable(),
    deadLetteredAt: z.string().datetime().nullable(),
    createdAt: z.string().datetime(),
    attemptLog: z.array(WebhookAttemptSchema),
  })
  .openapi('WebhookDelivery');

export const WebhookDeliveryPageSchema = pageSchema(WebhookDeliverySchema, 'WebhookDeliveryPage');

export const DeliveryParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' } }),
  deliveryId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'deliveryId', in: 'path' } }),
});

/** What every operation says about the deliveries themselves (also in docs/webhooks.md). */
/** What a suspended organisation may not do with its endpoints (src/services/webhooks/endpoints.ts). */
export const SUSPENDED_DOC =
  'A suspended organisation cannot register or change endpoints (403 `organisation-suspended`) until the ' +
  'platform reviews it again; it may still read, disable (`enabled: false` alone), delete, ping them and rotate ' +
  'their secrets.';

export const DELIVERY_DOC =
  'Events are POSTed as JSON `{type, timestamp, data}` with the Standard Webhooks headers `webhook-id`, ' +
  '`webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, space-separated ' +
  'when a rotated secret still signs). A 2xx within 10 s is success; anything else (a 3xx included: redirects ' +
  'are not followed) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then dead-lettered. An ' +
  'endpoint failing for 5 days is disabled and the organisation notified; events raised while an endpoint is ' +
  'disabled are logged as `failed` deliveries (not attempted), to redeliver once it is enabled again. Payloads ' +
  'carry ids and states only.';
