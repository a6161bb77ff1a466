import { stringify } from 'yaml';
import { WEBHOOK_EVENT_SCHEMAS, WebhookEventSchema } from '../domain/webhooks/event-schemas';
import { isLoopbackHost } from '../domain/webhooks/targets';
import type { AppOpenAPI } from './types';

/**
 * The server URL written into the committed `openapi.yaml`, a placeholder for "your deployment".
 * `GET /openapi.yaml` serves the same document with the deployment's own `PUBLIC_BASE_URL`.
 */
export const CANONICAL_SERVER_URL = 'https://api.example.com';

export const SECURITY: Record<'session' | 'apiKey', Record<string, string[]>[]> = {
  session: [{ sessionCookie: [] }],
  apiKey: [{ serviceKey: [] }],
};

/** The API description. `serverUrl` is where this document is served from. */
const description = (
  serverUrl: string,
) => `Work-verification platform: AI pillars for partners (playbooks, integrity, rubrics),
candidate submissions with AI evaluation and blind employer rating, signed certificates with public
verification, a public leaderboard and AI/employer agreement rate, and data-subject rights under
India's DPDP Act 2023. The Data Protection Officer's contact is at [\`/api/dpo\`](/api/dpo).

Every error is RFC 9457 \`application/problem+json\` (the HTML pages below answer a browser's
\`Accept: text/html\` with the same error as a page). Paths under \`/api/v1/\` are frozen: breaking
changes ship under \`/api/v2/\` and \`/api/v1/\` stays for 12 months. Changes are listed at \`/changelog\`.

**Writes with the session cookie need an allowed \`Origin\`.** A cookie-authenticated \`POST\`, \`PATCH\`
or \`DELETE\` without an \`Origin\` header equal to this server's origin (or one in \`ALLOWED_ORIGINS\`)
is refused with 403: browsers send it themselves; other clients add \`Origin: ${serverUrl}\`.
API-key calls (\`X-Service-Key\`) are not affected.

Public reads (verification, the documents a credential points to under \`/ob/\`, baked badges,
leaderboard, agreement rate, briefs, keys, notices, problem types, this document) allow any origin and answer CORS preflights, so browser integrations may send custom headers.

Pages for people: certificate verification at \`/verify/{certificateNo}\` (the signature is checked in
the browser; a local server started with \`npm run dev\` has [a demo certificate](/verify/VP-DEM0-CERT-1FY3)) and the [embeddable leaderboard](/embed/leaderboard) at \`/embed/leaderboard\`, which partners
add with the one-line loader script \`${serverUrl}/embed/leaderboard.js\` (see that operation).`;

/** Every tag an operation uses, declared with what it groups (the order of the reference's sections). */
export const TAGS = [
  { name: 'Auth', description: 'Accounts and cookie sessions: sign up, log in, log out.' },
  { name: 'Me', description: "The signed-in caller's own profile." },
  {
    name: 'API keys',
    description: 'Partner API keys: issued and revoked by admins, described by the key itself.',
  },
  {
    name: 'AI pillars',
    description: 'Playbook generation, integrity checks and rubric extraction for partners (API key).',
  },
  {
    name: 'Organisations',
    description:
      'Who issues certificates: employers act for an organisation, proven by a DNS record or an admin review; only verified ones issue valid certificates.',
  },
  {
    name: 'Webhooks',
    description:
      "Signed event deliveries to an organisation's endpoints (Standard Webhooks): `evaluation.completed`, " +
      '`submission.rated`, `certificate.issued`, `certificate.revoked`, `dsr.erasure.completed`, and the test ' +
      '`webhook.ping`. Each is POSTed as `{type, timestamp, data}` (data: ids and states, never names, emails or ' +
      'submitted work) with `webhook-id`, `webhook-timestamp` and `webhook-signature`; verify them with the ' +
      "endpoint's `whsec_` secret (e.g. the `standardwebhooks` package) and deduplicate on `webhook-id`. Retries: " +
      '5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then a dead letter; redirects are not followed; targets must be ' +
      'https at public addresses. Guide: docs/webhooks.md.',
  },
  { name: 'Briefs', description: 'Work briefs published by employers, with their rubric and playbook.' },
  { name: 'Submissions', description: "Candidates' work against a brief's milestones." },
  {
    name: 'Evaluations',
    description: 'AI evaluations of submissions and the blind employer rating that can issue a certificate.',
  },
  {
    name: 'Certificates',
    description: 'Signed certificates (Open Badges 3.0 VC-JWT), public verification and keys.',
  },
  {
    name: 'Open Badges',
    description:
      'The public documents a credential names and resolves: its key (`kid`), issuer Profile, achievement and ' +
      'revocation status list. CORS open, cacheable.',
  },
  {
    name: 'Open Badges API',
    description:
      "The 1EdTech APIs under `/ims/` (and only they): the Open Badges 3.0 API (`/ims/ob/v3p0/`: a holder's " +
      'credentials and profile) and the CLR 2.0 API (`/ims/clr/v2p0/`: their learner record), each with its Service ' +
      'Description Document, for a backpack or wallet the holder authorised (tag "Portability"). Errors are ' +
      '`Imsx_StatusInfo`, as the specifications require. Guide: docs/portability.md.',
  },
  {
    name: 'Portability',
    description:
      'The OAuth 2.0 authorization server that protects `/ims/` (RFC 7591 registration, the holder’s authorization ' +
      'page, authorization code with PKCE S256, refresh, RFC 7009 revocation, RFC 8414 metadata; errors RFC 6749 ' +
      'JSON), the holder’s grants (consents: listed, revocable) and "send to my host" (this service as the client ' +
      'of the holder’s own Open Badges host). Guide: docs/portability.md.',
  },
  { name: 'Leaderboard', description: 'The public leaderboard of consenting candidates.' },
  { name: 'Agreement', description: 'How often AI verdicts agree with independent employer verdicts.' },
  { name: 'Consent', description: 'Consent notices and the per-purpose consent ledger (DPDP Act 2023 §6).' },
  {
    name: 'Data rights',
    description: 'Access, correction, erasure, grievance and nomination (DPDP Act 2023 §11–14).',
  },
  {
    name: 'DigiLocker',
    description:
      'The platform as a DigiLocker issuer (API Setu issuer APIs): the Pull URI and Pull Doc endpoints DigiLocker calls, in its XML (docs/digilocker.md).',
  },
  { name: 'Health', description: 'Whether the deployment is configured and serving as expected.' },
  {
    name: 'Audit',
    description: 'Who used which power (keys, roles, reviews), when and from where; for admins.',
  },
  {
    name: 'Jobs',
    description:
      'Work done after a response (erasures, evaluations…): stalled jobs and their retry, for admins.',
  },
  {
    name: 'Pages',
    description: 'HTML pages for people: certificate verification and the leaderboard embed.',
  },
  {
    name: 'Meta',
    description: 'The API describing itself: this document, the reference, the changelog, problem types.',
  },
];

export const SESSION_SCHEME_DESCRIPTION =
  'Session token set by `POST /api/auth/login` or `POST /api/auth/signup` (HttpOnly, Secure, SameSite=Strict). ' +
  '**Writes need an allowed `Origin`:** a cookie-authenticated `POST`, `PATCH` or `DELETE` must carry an `Origin` ' +
  "header equal to the server's own origin (or one in `ALLOWED_ORIGINS`), or `Sec-Fetch-Site: same-origin`; " +
  'otherwise it is refused with 403 `/problems/forbidden`. Browsers send `Origin` themselves. Non-browser clients ' +
  'add it, e.g. `curl -b cookies.txt -H "Origin: https://api.example.com" -H "Content-Type: application/json" ' +
  "-X POST https://api.example.com/api/consent -d '{...}'`. Reads (`GET`) need no `Origin`.";

export function registerSecuritySchemes(app: AppOpenAPI) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description: SESSION_SCHEME_DESCRIPTION,
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'serviceKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Key',
    description: 'Partner API key issued by an admin at `POST /api/admin/api-keys`; scoped per pillar.',
  });
}

const withWebhookEvents = new WeakSet<AppOpenAPI>();

/**
 * The webhook events (src/domain/webhooks/event-schemas.ts) as schema components: `WebhookEvent`
 * and what it references (each event, each event's data). No route returns them (they are POSTed
 * to the organisation's endpoints), so they are registered here, once per app.
 */
export function registerWebhookEventSchemas(app: AppOpenAPI) {
  if (withWebhookEvents.has(app)) return;
  withWebhookEvents.add(app);
  app.openAPIRegistry.register('WebhookEvent', WebhookEventSchema);
}

/** The entry of `x-webhooks` (one: every event goes to the same URL, its `type` says which it is). */
export const WEBHOOKS_ENTRY = 'event';

/**
 * `x-webhooks`: OpenAPI 3.0.3 has no `webhooks` object (3.1 has), so the deliveries are described
 * in the extension Redoc and Redocly read the same way: a Path Item whose `post` is what we send
 * to an organisation's endpoint, its body `WebhookEvent` (each event type a member, its component
 * named in the discriminator's mapping). The frozen v1 contract diffs each member as a response
 * (scripts/lib/contract.mjs).
 */
export function webhooksExtension() {
  const types = Object.entries(WEBHOOK_EVENT_SCHEMAS).map(
    ([type, schema]) => `- \`${type}\` (\`${schema.meta()?.id}\`): ${schema.meta()?.description ?? ''}`,
  );
  return {
    [WEBHOOKS_ENTRY]: {
      post: {
        tags: ['Webhooks'],
        summary: 'An event, POSTed to your endpoint',
        description:
          "POSTed as JSON to each of the organisation's endpoints subscribed to its `type` (a ping: to the endpoint " +
          'pinged), signed with the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and ' +
          '`webhook-signature`. Verify the raw body, deduplicate on `webhook-id`. Guide: docs/webhooks.md.\n\n' +
          types.join('\n'),
        operationId: 'receiveWebhookEvent',
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: `#/components/schemas/${WebhookEventSchema.meta()?.id}` } },
          },
        },
        responses: {
          '2XX': {
            description:
              'Received. Answer within 10 s: anything else (a 3xx included, redirects are not followed) fails ' +
              'the attempt, retried on the schedule in docs/webhooks.md (a ping is not retried).',
          },
        },
      },
    },
  };
}

type Json = unknown;

/**
 * Corrections to what the zod-to-openapi generator writes, applied to the whole document:
 * - `{ anyOf: [{ $ref }, { nullable: true }] }` (from `nullableRef`) becomes
 *   `{ type: object, nullable: true, allOf: [{ $ref }] }`: nullability at the use site, with the
 *   `type` that OpenAPI 3.0.3 requires beside `nullable`, and the component itself not nullable;
 * - a bare `{ nullable: true }` (from `z.unknown()`) becomes `{}` (any value);
 * - an `integer` without a `format` gets one: `int32` when its bounds fit, `int64` otherwise.
 */
export function normalizeSchemas(value: Json): Json {
  if (Array.isArray(value)) return value.map(normalizeSchemas);
  if (!value || typeof value !== 'object') return value;
  const node = Object.fromEntries(
    Object.entries(value as Record<string, Json>).map(([k, v]) => [k, normalizeSchemas(v)]),
  ) as Record<string, Json>;
  const keys = Object.keys(node);
  if (keys.length === 1 && node.nullable === true) return {};
  const anyOf = node.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const [ref, other] = anyOf as Record<string, Json>[];
    if (ref && '$ref' in ref && other && Object.keys(other).length === 0) {
      const { anyOf: _, ...rest } = node;
      return { type: 'object', nullable: true, allOf: [ref], ...rest };
    }
  }
  if (node.type === 'integer' && node.format === undefined) {
    const INT32 = 2 ** 31;
    const fits =
      typeof node.minimum === 'number' &&
      typeof node.maximum === 'number' &&
      node.minimum >= -INT32 &&
      node.maximum < INT32;
    node.format = fits ? 'int32' : 'int64';
  }
  return node;
}

/** What the docs page calls the server: a local `npm run dev` is not "Production". */
function serverLabel(serverUrl: string): string {
  let host = '';
  try {
    host = new URL(serverUrl).hostname.replace(/^\[|\]$/g, '');
  } catch {
    // not a URL: labelled as a deployment
  }
  return isLoopbackHost(host) ? 'Local development server (npm run dev)' : 'Production';
}

export function openApiDocument(app: AppOpenAPI, serverUrl: string) {
  registerWebhookEventSchemas(app);
  const doc = app.getOpenAPIDocument({
    openapi: '3.0.3',
    info: {
      title: 'Core API',
      version: 'v1.0.0',
      description: description(serverUrl),
      contact: { name: 'API changelog and reference', url: `${serverUrl}/docs` },
    },
    servers: [{ url: serverUrl, description: serverLabel(serverUrl), 'x-internal': false }],
    tags: TAGS,
  });
  return {
    ...doc,
    paths: normalizeSchemas(doc.paths),
    'x-webhooks': webhooksExtension(),
    components: normalizeSchemas(doc.components),
  } as typeof doc & { 'x-webhooks': ReturnType<typeof webhooksExtension> };
}

export function openApiYaml(app: AppOpenAPI, serverUrl: string): string {
  // YAML 1.1 rules for quoting, so parsers of either version read the same strings (a date-like example such
  // as 1998-04-17 is quoted; YAML 1.1 parsers would read it as a timestamp).
  return stringify(openApiDocument(app, serverUrl), {
    aliasDuplicateObjects: false,
    lineWidth: 0,
    version: '1.1',
  });
}

type DocOperation = {
  summary?: string;
  security?: Record<string, string[]>[];
  'x-roles'?: string[];
  'x-scope'?: string;
};

export const ENDPOINTS_START = '<!-- endpoints:start (generated by `npm run openapi`) -->';
export const ENDPOINTS_END = '<!-- endpoints:end -->';

/**
 * The README's endpoint table, generated from the document so the two cannot disagree.
 * `sources` maps `METHOD /path` to the file that defines the operation (scripts/lib/route-sources.mjs).
 */
export function endpointTable(app: AppOpenAPI, sources: Record<string, string>): string {
  const doc = openApiDocument(app, CANONICAL_SERVER_URL);
  const rows = ['| Method | Path | Auth | Purpose | Source |', '|---|---|---|---|---|'];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, raw] of Object.entries(item as Record<string, DocOperation>)) {
      const schemes = (raw.security ?? []).flatMap((s) => Object.keys(s));
      const auth = schemes.includes('sessionCookie')
        ? `session${raw['x-roles'] ? ` (${raw['x-roles'].join(', ')})` : ''}`
        : schemes.includes('serviceKey')
          ? `API key${raw['x-scope'] ? ` (\`${raw['x-scope']}\`)` : ''}`
          : 'none';
      const source = sources[`${method.toUpperCase()} ${path}`];
      const link = source ? `[${source.replace(/^src\/routes\//, '')}](${source})` : '';
      rows.push(`| ${method.toUpperCase()} | \`${path}\` | ${auth} | ${raw.summary ?? ''} | ${link} |`);
    }
  }
  return `${ENDPOINTS_START}\n${rows.join('\n')}\n${ENDPOINTS_END}`;
}

/** README text with its endpoint table replaced by the generated one. */
export function withEndpointTable(readme: string, table: string): string {
  const start = readme.indexOf(ENDPOINTS_START);
  const end = readme.indexOf(ENDPOINTS_END);
  if (start < 0 || end < start) throw new Error('README.md has no endpoint table markers');
  return readme.slice(0, start) + table + readme.slice(end + ENDPOINTS_END.length);
}
