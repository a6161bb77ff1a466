/**
 * The webhook events as schemas (docs/webhooks.md → Events): the body of every delivery is
 * `{type, timestamp, data}`, one of `WebhookEvent`'s members, told apart by `type`. The builders in
 * src/services/webhooks/events.ts (and the ping in delivery.ts) are typed by these, so a payload
 * cannot drift from what is documented; src/lib/openapi.ts publishes them as components of
 * openapi.yaml (and `x-webhooks`), and the frozen v1 contract (scripts/lib/contract.mjs) keeps them.
 *
 * Plain zod, no Hono (this is the domain): `.meta({ id })` names the OpenAPI component, as
 * `.openapi('Name')` does in the route schemas. Objects are not strict: a field added later is a
 * compatible change, receivers ignore what they do not know.
 */
import { z } from 'zod';

const id = (description: string) => z.string().min(1).meta({ description });

const timestamp = z
  .string()
  .datetime()
  .meta({
    description:
      'When the event was raised (`dsr.erasure.completed`: when the erasure completed). The same on every attempt ' +
      'and redelivery; the time of the attempt itself is the `webhook-timestamp` header.',
    example: '2025-01-31T09:30:00.000Z',
  });

/** One event: its `type`, its time and its `data` (a named component too). */
function event<const T extends string, D extends z.ZodType>(
  type: T,
  name: string,
  description: string,
  data: D,
) {
  return z
    .object({
      type: z.literal(type),
      timestamp,
      data,
    })
    .meta({ id: name, description });
}

// --- evaluation.completed

export const EvaluationCompletedDataSchema = z
  .object({
    evaluationId: id('The evaluation (`GET /api/evaluations/{id}`).'),
    submissionId: id('The submission it evaluated.'),
    briefId: id("The brief, one of the organisation's."),
    milestoneId: id('The milestone of the brief the submission answers.'),
    state: z.enum(['completed', 'failed']).meta({
      description:
        '`completed`: the AI evaluation finished; `failed`: it could not be made (the submission can still be ' +
        'rated). No score or verdict: the organisation rates blind to the AI until its rating is made.',
    }),
  })
  .meta({ id: 'EvaluationCompletedEventData' });

export const EvaluationCompletedEventSchema = event(
  'evaluation.completed',
  'EvaluationCompletedEvent',
  "The AI evaluation of a submission to one of the organisation's briefs finished.",
  EvaluationCompletedDataSchema,
);

// --- submission.rated

export const SubmissionRatedDataSchema = z
  .object({
    ratingId: id('The rating.'),
    evaluationId: id('The evaluation that was rated.'),
    submissionId: id('The submission rated.'),
    briefId: id('Its brief.'),
    milestoneId: id('The milestone of the brief the submission answers.'),
    verdict: z.enum(['pass', 'fail']).meta({ description: "The member's verdict." }),
    score: z.number().int().min(1).max(5).meta({ description: "The member's score, 1 to 5." }),
  })
  .meta({ id: 'SubmissionRatedEventData' });

export const SubmissionRatedEventSchema = event(
  'submission.rated',
  'SubmissionRatedEvent',
  'A member of the organisation rated a submission.',
  SubmissionRatedDataSchema,
);

// --- certificate.issued, certificate.revoked

const certificateData = <const S extends string>(status: S, name: string, at: string) =>
  z
    .object({
      certificateId: id('The certificate.'),
      certificateNo: z.string().min(1).meta({
        description: 'Its public number (`GET /api/verify/{certificateNo}`).',
        example: 'VP-DEM0-CERT-1FY3',
      }),
      briefId: id('The brief it certifies.'),
      status: z.literal(status).meta({ description: `\`${status}\`.` }),
      at: z.string().datetime().meta({ description: at }),
    })
    .meta({ id: name });

export const CertificateIssuedDataSchema = certificateData(
  'active',
  'CertificateIssuedEventData',
  'When it was issued.',
);

export const CertificateIssuedEventSchema = event(
  'certificate.issued',
  'CertificateIssuedEvent',
  'A certificate of the organisation was issued: at the rating that earned it, or when the organisation was ' +
    'verified for one earned before.',
  CertificateIssuedDataSchema,
);

export const CertificateRevokedDataSchema = certificateData(
  'revoked',
  'CertificateRevokedEventData',
  'When it was revoked.',
);

export const CertificateRevokedEventSchema = event(
  'certificate.revoked',
  'CertificateRevokedEvent',
  'A certificate of the organisation was revoked.',
  CertificateRevokedDataSchema,
);

// --- dsr.erasure.completed

export const ErasureCompletedDataSchema = z
  .object({
    submissionIds: z.array(z.string()).meta({
      description: "The person's submissions to the organisation's briefs (possibly none).",
    }),
    certificateIds: z.array(z.string()).meta({
      description: 'The certificates the organisation issued to the person (possibly none).',
    }),
    certificateNumbers: z.array(z.string()).meta({
      description: 'Their public numbers, in the order of `certificateIds`.',
    }),
  })
  .meta({
    id: 'ErasureCompletedEventData',
    description: 'The records to erase on your side. No name, email address or account id.',
  });

export const ErasureCompletedEventSchema = event(
  'dsr.erasure.completed',
  'ErasureCompletedEvent',
  'A person whose data the organisation held was erased (recorded when the erasure started, sent when it ' +
    'completed).',
  ErasureCompletedDataSchema,
);

// --- webhook.ping

export const WebhookPingDataSchema = z
  .object({ endpointId: id('The endpoint pinged.') })
  .meta({ id: 'WebhookPingEventData' });

export const WebhookPingEventSchema = event(
  'webhook.ping',
  'WebhookPingEvent',
  'A test event, sent on demand by `POST …/{id}/ping` to that endpoint only (whatever it subscribes to).',
  WebhookPingDataSchema,
);

// --- All of them

/** Every event, by `type`. */
export const WEBHOOK_EVENT_SCHEMAS = {
  'evaluation.completed': EvaluationCompletedEventSchema,
  'submission.rated': SubmissionRatedEventSchema,
  'certificate.issued': CertificateIssuedEventSchema,
  'certificate.revoked': CertificateRevokedEventSchema,
  'dsr.erasure.completed': ErasureCompletedEventSchema,
  'webhook.ping': WebhookPingEventSchema,
} as const;

export const WebhookEventSchema = z
  .discriminatedUnion('type', [
    EvaluationCompletedEventSchema,
    SubmissionRatedEventSchema,
    CertificateIssuedEventSchema,
    CertificateRevokedEventSchema,
    ErasureCompletedEventSchema,
    WebhookPingEventSchema,
  ])
  .meta({
    id: 'WebhookEvent',
    description:
      'The JSON body of every webhook delivery: `{type, timestamp, data}`, `data` by `type`. Ids and states only: ' +
      'never a name, an email address or submitted work. Verify the signature (Standard Webhooks headers) on ' +
      'the raw body before parsing it; ignore a `type` you do not know.',
  });

export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
/** Every event type: the subscribable ones (`WebhookEventType`) and `webhook.ping`. */
export type WebhookEventName = WebhookEvent['type'];
/** The event of one type. */
export type WebhookEventOf<T extends WebhookEventName> = Extract<WebhookEvent, { type: T }>;
/** The `data` of one type's event. */
export type WebhookEventData<T extends WebhookEventName> = WebhookEventOf<T>['data'];
