/**
 * Every response the suite produces is checked against the OpenAPI document the code generates,
 * so the document cannot drift from behaviour: the status is documented for the operation, the
 * content type is a documented one, and a JSON body validates against the documented schema.
 * `call()` in test/helpers.ts and `app.fetch` (wrapped in test/response-validation.setup.ts)
 * run every response through `assertDocumentedResponse`, which throws on a mismatch, so the
 * test that produced it fails at that line.
 *
 * workerd forbids `eval` and `new Function`, so Ajv cannot compile here; @cfworker/json-schema
 * interprets schemas instead. OpenAPI 3.0 schemas are converted to JSON Schema 2020-12:
 * `nullable` becomes a `null` type, component `$ref`s point into one shared `$defs` document,
 * and objects are closed: a response may carry no property the document does not name (no
 * undocumented or hidden fields). Composed objects (`allOf`) are closed as a whole with
 * `unevaluatedProperties`, their members left open.
 */
import { type OutputUnit, type Schema, Validator } from '@cfworker/json-schema';
import { app } from '../src/app';
import { CANONICAL_SERVER_URL, openApiDocument } from '../src/http/openapi';

type OpenApiSchema = Record<string, unknown>;
type MediaType = { schema?: OpenApiSchema };
type ResponseDoc = { content?: Record<string, MediaType>; headers?: Record<string, unknown> };
type Operation = { responses: Record<string, ResponseDoc>; security?: unknown[] };
type PathItem = Record<string, Operation>;

const DEFS_ID = 'https://openapi.test/components.json';
const OPEN = '__open';

const document = openApiDocument(app, CANONICAL_SERVER_URL) as unknown as {
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, OpenApiSchema> };
};

/** OpenAPI 3.0 Schema Object → JSON Schema 2020-12 (see the file comment). */
function convert(schema: OpenApiSchema, open = false): Schema {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return { $ref: `${DEFS_ID}#/$defs/${name}${open ? OPEN : ''}` };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'example' || key === 'description' || key.startsWith('x-')) continue;
    if (key === 'properties')
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, OpenApiSchema>).map(([k, v]) => [k, convert(v)]),
      );
    else if (key === 'items' || key === 'not') out[key] = convert(value as OpenApiSchema);
    else if (key === 'additionalProperties')
      out.additionalProperties = typeof value === 'boolean' ? value : convert(value as OpenApiSchema);
    else if (key === 'allOf') out.allOf = (value as OpenApiSchema[]).map((v) => convert(v, true));
    else if (key === 'anyOf' || key === 'oneOf') out[key] = (value as OpenApiSchema[]).map((v) => convert(v));
    else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
      // OpenAPI 3.0 (draft 4) booleans modify minimum/maximum; 2020-12 takes the bound itself.
      const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
      if (value) out[key] = schema[bound];
    } else out[key] = value;
  }
  if (out.exclusiveMinimum !== undefined) delete out.minimum;
  if (out.exclusiveMaximum !== undefined) delete out.maximum;
  const isObject = out.type === 'object' || out.properties !== undefined;
  if (!open && isObject && out.additionalProperties === undefined) {
    if (out.properties !== undefined) out.additionalProperties = false;
  }
  if (!open && out.allOf !== undefined) out.unevaluatedProperties = false;
  if (schema.nullable === true) {
    // `{type: object, nullable: true, allOf: [$ref]}` (src/lib/openapi.ts normalizeSchemas): the
    // object the reference describes, or null.
    if (out.allOf !== undefined) return { anyOf: [out as Schema, { type: 'null' }] };
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    } else if (Object.keys(out).length > 0) {
      return { anyOf: [out as Schema, { type: 'null' }] };
    }
  }
  return out as Schema;
}

const defs: Record<string, Schema> = {};
for (const [name, schema] of Object.entries(document.components.schemas)) {
  defs[name] = convert(schema);
  defs[`${name}${OPEN}`] = convert(schema, true);
}
const components: Schema = { $id: DEFS_ID, $defs: defs };

const validators = new Map<string, Validator>();
function validatorFor(key: string, schema: OpenApiSchema): Validator {
  let validator = validators.get(key);
  if (!validator) {
    validator = new Validator(
      { $id: `https://openapi.test/${encodeURIComponent(key)}`, ...convert(schema) },
      '2020-12',
      false,
    );
    validator.addSchema(components);
    validators.set(key, validator);
  }
  return validator;
}

const templates = Object.keys(document.paths).map((template) => ({
  template,
  params: (template.match(/\{/g) ?? []).length,
  pattern: new RegExp(`^${template.replaceAll(/\{[^}]+\}/g, '[^/]+')}$`),
}));

/** The documented path template a concrete path belongs to (the most specific one). */
export function templateFor(pathname: string): string | undefined {
  // The app is not strict about a trailing slash: `/api/briefs/` is `/api/briefs`.
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  return templates.filter((t) => t.pattern.test(path)).sort((a, b) => a.params - b.params)[0]?.template;
}

export type ResponseCheck = { problems: string[]; operation: string };

const mediaTypeOf = (res: Response) =>
  (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
const isJson = (mediaType: string) => /^application\/([\w.-]+\+)?json$/.test(mediaType);

function describeErrors(errors: OutputUnit[]): string[] {
  // The deepest errors say what is wrong; the ones above them only repeat "a subschema failed".
  const specific = errors.filter(
    (e) => !['properties', '$ref', 'allOf', 'items', 'anyOf'].includes(e.keyword),
  );
  return (specific.length > 0 ? specific : errors)
    .slice(0, 8)
    .map((e) => `${e.instanceLocation}: ${e.error}`);
}

/**
 * The body as text. A gzip-encoded answer straight from `app.fetch` holds the encoded bytes (through
 * `SELF`, the runtime has already decoded them, the header left as it was).
 */
async function textOf(res: Response): Promise<string> {
  const bytes = new Uint8Array(await res.clone().arrayBuffer());
  const gzipped = res.headers.get('content-encoding') === 'gzip' && bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (!gzipped) return new TextDecoder().decode(bytes);
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

async function checkBody(
  key: string,
  res: Response,
  documented: ResponseDoc | undefined,
  problems: string[],
): Promise<void> {
  const mediaType = mediaTypeOf(res);
  const content = documented?.content;
  if (!content || Object.keys(content).length === 0) {
    const text = res.body === null ? '' : await textOf(res);
    if (text.length > 0) problems.push(`has a ${mediaType || 'untyped'} body, but none is documented`);
    return;
  }
  const media = content[mediaType];
  if (!media) {
    problems.push(
      `content type "${mediaType}" is not one of the documented ${Object.keys(content).join(', ')}`,
    );
    return;
  }
  if (!isJson(mediaType) || !media.schema) return;
  const text = await textOf(res);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push(`declares ${mediaType} but the body is not JSON: ${text.slice(0, 80)}`);
    return;
  }
  const result = validatorFor(`${key} ${mediaType}`, media.schema).validate(body);
  if (!result.valid) problems.push(...describeErrors(result.errors).map((e) => `body ${e}`));
  if (mediaType === 'application/problem+json') {
    const problem = body as { type?: unknown; status?: unknown };
    if (problem.status !== res.status) problems.push(`problem status ${problem.status} is not ${res.status}`);
    if (typeof problem.type !== 'string' || !/^\/problems\/[a-z-]+$/.test(problem.type))
      problems.push(`problem type ${String(problem.type)} is not a /problems/{type} URI`);
  }
}

/** Checks one response against the document; returns what is wrong (nothing when it conforms). */
export async function checkResponse(method: string, url: string, res: Response): Promise<ResponseCheck> {
  const { pathname } = new URL(url);
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const template = templateFor(pathname);
  const operation = `${method.toUpperCase()} ${template ?? pathname}`;
  const problems: string[] = [];
  const problemDoc: ResponseDoc = {
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } },
  };
  // The Open Badges API's paths answer every error as `Imsx_StatusInfo` (src/index.ts).
  const errorDoc: ResponseDoc = pathname.startsWith('/ims/')
    ? { content: { 'application/json': { schema: { $ref: '#/components/schemas/Imsx_StatusInfo' } } } }
    : problemDoc;
  // The body limit applies to every /api/ request before routing, so an oversized body is a 413
  // even on a path or method that does not exist.
  // So is a body that is not UTF-8 (src/middleware/strict-utf8.ts): a 400 `invalid-encoding`, whatever the path.
  const tooLarge =
    pathname.startsWith('/api/') &&
    (res.status === 413 ||
      (res.status === 400 && (await res.clone().text()).includes('"/problems/invalid-encoding"')));
  if (!template) {
    // Nothing undocumented is reachable: an unknown path is a 404 problem.
    if (res.status !== 404 && !tooLarge)
      problems.push(`status ${res.status} for a path the document does not have`);
    await checkBody('unknown 404', res, errorDoc, problems);
    return { problems, operation };
  }
  const op = document.paths[template]?.[verb];
  // A CORS preflight of a public read (see info.description and src/middleware/public-cors.ts).
  const publicRead = document.paths[template]?.get?.security?.length === 0;
  if (!op && verb === 'options' && publicRead && res.status === 204) {
    if (res.headers.get('access-control-allow-origin') !== '*')
      problems.push('preflight without Access-Control-Allow-Origin: *');
    return { problems, operation };
  }
  if (!op) {
    if (res.status !== 405 && !tooLarge)
      problems.push(`status ${res.status} for a method the path does not document`);
    if (res.status === 405 && !res.headers.get('allow')) problems.push('405 without an Allow header');
    await checkBody('any 405', res, errorDoc, problems);
    return { problems, operation };
  }
  const documented = op.responses[String(res.status)] ?? op.responses.default;
  if (!documented) {
    problems.push(
      `status ${res.status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`,
    );
    if (res.status >= 400) await checkBody('any problem', res, errorDoc, problems);
    return { problems, operation };
  }
  if (method.toLowerCase() !== 'head')
    await checkBody(`${verb} ${template} ${res.status}`, res, documented, problems);
  return { problems, operation };
}

/** Throws when the response does not conform to the document; the message says how. */
export async function assertDocumentedResponse(method: string, url: string, res: Response): Promise<void> {
  const { problems, operation } = await checkResponse(method, url, res);
  if (problems.length > 0)
    throw new Error(
      `${operation} → ${res.status} does not match the OpenAPI document:\n  ${problems.join('\n  ')}`,
    );
}
