import { defineRoute } from '../../http/route';
import { json } from '../../lib/content';
import { GZIP_RESPONSE_HEADERS } from '../../lib/content-coding';
import {
  AchievementParams,
  AchievementSchema,
  CriteriaSchema,
  IssuerParams,
  JwkSchema,
  ProfileSchema,
  StatusListParams,
  ThumbprintParams,
} from './ob.schemas';

const PUBLIC_HEADERS = {
  'Cache-Control': { schema: { type: 'string' as const } },
  'Access-Control-Allow-Origin': { schema: { type: 'string' as const } },
};

/** The keys, Profiles and Achievements: sent gzip-encoded to a client that accepts it. */
const GZIPPED_PUBLIC_HEADERS = { ...PUBLIC_HEADERS, ...GZIP_RESPONSE_HEADERS };

export const getKey = defineRoute({
  method: 'get',
  path: '/ob/keys/{thumbprint}',
  operationId: 'getCredentialKey',
  tags: ['Open Badges'],
  summary: 'One public key that signs credentials (the JWS `kid` URL)',
  description:
    'Public, CORS open. Every credential’s JOSE header `kid` is this URL: it answers exactly that public JWK, current or ' +
    'retired (ES256 on P-256; EdDSA on Ed25519 for credentials issued before ES256).',
  security: [],
  request: { params: ThumbprintParams },
  errors: [503],
  responses: {
    200: { description: 'The public JWK.', headers: GZIPPED_PUBLIC_HEADERS, content: json(JwkSchema) },
  },
});

export const getIssuer = defineRoute({
  method: 'get',
  path: '/ob/issuers/{issuerId}',
  operationId: 'getIssuerProfile',
  tags: ['Open Badges'],
  summary: 'An issuer’s Open Badges 3.0 Profile (a credential’s `issuer.id`)',
  description:
    'Public, CORS open. The organisation’s current name, website and verification state; `platform` is the platform ' +
    'itself (the issuer of status lists and of credentials earned before organisations).',
  security: [],
  request: { params: IssuerParams },
  responses: {
    200: { description: 'The Profile.', headers: GZIPPED_PUBLIC_HEADERS, content: json(ProfileSchema) },
  },
});

export const getAchievement = defineRoute({
  method: 'get',
  path: '/ob/achievements/{briefId}',
  operationId: 'getAchievement',
  tags: ['Open Badges'],
  summary: 'What a brief’s certificate attests (a credential’s achievement id)',
  description:
    'Public, CORS open. Name, description, criteria narrative and the rubric as `resultDescription`s. Draft briefs are 404.',
  security: [],
  request: { params: AchievementParams },
  responses: {
    200: {
      description: 'The Achievement.',
      headers: GZIPPED_PUBLIC_HEADERS,
      content: json(AchievementSchema),
    },
  },
});

export const getCriteria = defineRoute({
  method: 'get',
  path: '/ob/achievements/{briefId}/criteria',
  operationId: 'getAchievementCriteria',
  tags: ['Open Badges'],
  summary: 'What earns a brief’s certificate (an achievement’s `criteria.id`)',
  description:
    'Public, CORS open. An Open Badges `Criteria` document: the narrative (every milestone submitted, the final one ' +
    'rated a pass by the issuing organisation) and the rubric criteria the work is graded on. Draft briefs are 404.',
  security: [],
  request: { params: AchievementParams },
  responses: {
    200: { description: 'The Criteria.', headers: PUBLIC_HEADERS, content: json(CriteriaSchema) },
  },
});

export const getAchievementImage = defineRoute({
  method: 'get',
  path: '/ob/achievements/{briefId}/image.png',
  operationId: 'getAchievementImage',
  tags: ['Open Badges'],
  summary: 'A brief’s badge image (an achievement’s `image.id`)',
  description:
    'Public, CORS open. The achievement’s badge as a 400 × 400 PNG with no credential baked in: its name (up to two ' +
    'lines, any of Latin, Devanagari and Tamil) and its organisation drawn in the picture, and the same in the PNG ' +
    '`iTXt` chunks `Title` and `Description`. Rendered once per name and kept (`Cache-Control: public, max-age=300`). ' +
    'A holder’s baked badge is `/api/certificates/{certificateNo}/badge.png`. Draft briefs are 404.',
  security: [],
  request: { params: AchievementParams },
  responses: {
    200: {
      description: 'The PNG.',
      headers: PUBLIC_HEADERS,
      content: { 'image/png': { schema: { type: 'string' as const, format: 'binary' } } },
    },
  },
});

export const getStatusList = defineRoute({
  method: 'get',
  path: '/ob/status-lists/{purpose}/{list}',
  operationId: 'getStatusList',
  tags: ['Open Badges'],
  summary: 'A W3C Bitstring Status List credential (a credential’s `credentialStatus`)',
  description:
    'Public, CORS open, cacheable (`ETag`; `If-None-Match` → 304). A `BitstringStatusListCredential` signed as a VC-JWT ' +
    '(same keys and header as certificates): `encodedList` is `u` + base64url(GZIP(131,072 bits)), index 0 the ' +
    'left-most bit of the first byte; a set bit means revoked (or erased). Rebuilt on every revocation, suspension ' +
    'or erasure.',
  security: [],
  request: { params: StatusListParams },
  errors: [503],
  responses: {
    200: {
      description:
        'The status list credential: a compact JWS, or, to a client whose `Accept` asks for JSON-LD ' +
        '(`application/ld+json`, `application/vc+ld+json` or `application/vc`, and no JWT type), the same list as JSON ' +
        'with an embedded Data Integrity proof (eddsa-rdfc-2022) by the platform’s `did:web` (`Vary: Accept`).',
      headers: {
        ...PUBLIC_HEADERS,
        ETag: { schema: { type: 'string' as const } },
        Vary: { schema: { type: 'string' as const } },
      },
      content: {
        'application/vc+jwt': { schema: { type: 'string' as const } },
        'application/vc+ld+json': { schema: { type: 'object' as const, additionalProperties: true } },
      },
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
  },
});
