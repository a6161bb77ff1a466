import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { errorResponses, PROBLEM_TYPES } from '../../lib/problem';

const text = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: z.string() } },
});

export const getOpenApiYaml = defineRoute({
  method: 'get',
  path: '/openapi.yaml',
  operationId: 'getOpenApiYaml',
  tags: ['Meta'],
  summary: 'This OpenAPI 3.0.3 document',
  security: [],
  responses: {
    200: text('application/yaml', 'The OpenAPI document, served with this deployment as its server.'),
  },
});

export const getDocs = defineRoute({
  method: 'get',
  path: '/docs',
  operationId: 'getApiReference',
  tags: ['Meta'],
  summary: 'Interactive API reference',
  security: [],
  description:
    "Scalar API reference for /openapi.yaml. Loads only this origin's `/docs/scalar.js` (with its integrity " +
    'hash) and one inline script allowed by its hash; works offline.',
  responses: { 200: text('text/html', 'Scalar API reference for /openapi.yaml.'), ...errorResponses(503) },
});

export const getDocsScript = defineRoute({
  method: 'get',
  path: '/docs/scalar.js',
  operationId: 'getApiReferenceScript',
  tags: ['Meta'],
  summary: "The API reference's script",
  description:
    "Scalar's standalone browser bundle from the pinned `@scalar/api-reference` npm package, served by this " +
    'Worker (no CDN). Cached for a year: the page refers to it with a `v` parameter derived from its hash.',
  security: [],
  responses: {
    200: text('text/javascript', 'The bundle, exactly as the package ships it.'),
    ...errorResponses(503),
  },
});

export const getChangelog = defineRoute({
  method: 'get',
  path: '/changelog',
  operationId: 'getChangelog',
  tags: ['Meta'],
  summary: 'Changelog of the API',
  description:
    'CHANGELOG.md (Keep a Changelog format): every change to the API is recorded here, newest first. ' +
    'A request whose `Accept` lists `text/html` (a browser) gets it rendered as a page with a table of ' +
    'contents by version; any other gets the Markdown. Both are static files of this deployment, also ' +
    'at `/changelog.html` and `/changelog.md`.',
  security: [],
  responses: {
    200: {
      description: 'The changelog: Markdown, or HTML when `Accept` lists `text/html`.',
      content: { 'text/markdown': { schema: z.string() }, 'text/html': { schema: z.string() } },
    },
    ...errorResponses(503),
  },
});

export const ProblemTypeSchema = z
  .object({ type: z.string(), status: z.number().int(), title: z.string(), description: z.string() })
  .openapi('ProblemType');

export const getProblemType = defineRoute({
  method: 'get',
  path: '/problems/{type}',
  operationId: 'getProblemType',
  tags: ['Meta'],
  summary: 'Describe a problem type',
  description: 'The `type` of every problem+json response resolves here.',
  security: [],
  request: {
    params: z.object({
      type: z
        .enum(Object.keys(PROBLEM_TYPES) as [keyof typeof PROBLEM_TYPES])
        .openapi({ param: { name: 'type', in: 'path' } }),
    }),
  },
  responses: {
    200: { description: 'The problem type.', content: { 'application/json': { schema: ProblemTypeSchema } } },
  },
});
