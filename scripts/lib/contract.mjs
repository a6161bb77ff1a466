// The frozen v1 contract (docs/versioning.md): the `/api/v1/*` part of the OpenAPI document and
// the webhook events partners receive (`x-webhooks`), the breaking-change check against its
// committed snapshot (contract/v1.openapi.yaml), and
// the deliberately broken and additive copies (contract/fixtures/) that prove the check works
// both ways. Used by test/global-setup.ts (verdicts reach test/contract.test.ts through
// `inject`) and by scripts/contract.mjs (`npm run contract:update`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiDiff from 'openapi-diff';
import { parse, stringify } from 'yaml';

/** @typedef {any} Json An untyped piece of an OpenAPI document. */
/** @typedef {Record<string, any>} OpenApiDocument */
/** @typedef {{ code: string, entity: string, action: string, location: string, source: string }} Finding */
/** @typedef {{ breaking: Finding[], nonBreaking: Finding[], unclassified: Finding[] }} Findings */
/** @typedef {Findings & { ok: boolean, error?: string }} ContractDiff */
/** @typedef {{ op: 'add' | 'remove' | 'replace' | 'move', path: string, from?: string, value?: unknown }} PatchOperation */
/** @typedef {{ name: string, description: string, expect: 'breaking' | 'compatible', patch: PatchOperation[] }} Fixture */
/**
 * @typedef {{
 *   snapshotIsCurrent: boolean,
 *   current: ContractDiff,
 *   fixtures: (ContractDiff & { name: string, description: string, expect: 'breaking' | 'compatible' })[],
 * }} ContractVerdicts
 */

export const V1_PREFIX = '/api/v1/';
/** Where `diffContract` puts each webhook event, as an operation openapi-diff compares (never in a document). */
export const WEBHOOK_PREFIX = '/x-webhooks/';
export const SNAPSHOT_PATH = 'contract/v1.openapi.yaml';
export const FIXTURES_DIR = 'contract/fixtures';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Every `#/components/<kind>/<name>` that `value` references directly.
 * @param {Json} value
 * @param {Set<string>} found
 */
function refsIn(value, found = new Set()) {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/')) found.add(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

/**
 * The `/api/v1/*` part of a document: those paths, the webhooks (`x-webhooks`: the events every
 * endpoint receives, registered through /api/v1/webhooks or not), and only the components they
 * reach (schemas through `$ref`, transitively; security schemes through `security`), sorted.
 * @param {OpenApiDocument} doc
 * @returns {OpenApiDocument}
 */
export function v1Subset(doc) {
  const paths = Object.fromEntries(
    Object.entries(doc.paths ?? {}).filter(([path]) => path.startsWith(V1_PREFIX)),
  );
  /** @type {Record<string, Json> | undefined} */
  const webhooks = doc['x-webhooks'];
  /** @type {Record<string, Record<string, Json>>} */
  const components = {};
  const pending = [...refsIn(paths), ...refsIn(webhooks ?? {})];
  const seen = new Set();
  while (pending.length > 0) {
    const ref = /** @type {string} */ (pending.pop());
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [, , kind = '', name = ''] = ref.split('/');
    const target = doc.components?.[kind]?.[name];
    if (target === undefined) throw new Error(`Unresolved reference ${ref}`);
    components[kind] ??= {};
    components[kind][name] = target;
    pending.push(...refsIn(target));
  }
  for (const item of Object.values(paths))
    for (const method of HTTP_METHODS)
      for (const requirement of item[method]?.security ?? [])
        for (const name of Object.keys(requirement)) {
          components.securitySchemes ??= {};
          components.securitySchemes[name] = doc.components.securitySchemes[name];
        }
  /** @param {Record<string, Json>} o */
  const sortKeys = (o) =>
    Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  return {
    openapi: doc.openapi,
    info: { title: doc.info.title, version: doc.info.version },
    paths,
    ...(webhooks ? { 'x-webhooks': webhooks } : {}),
    components: Object.fromEntries(
      Object.keys(components)
        .sort()
        .map((kind) => [kind, sortKeys(components[kind] ?? {})]),
    ),
  };
}

/**
 * The snapshot file's text.
 * @param {OpenApiDocument} subset
 */
export function snapshotYaml(subset) {
  const header =
    '# The frozen /api/v1 contract. Written by `npm run contract:update`; see docs/versioning.md.\n';
  return header + stringify(subset, { aliasDuplicateObjects: false, lineWidth: 0 });
}

/**
 * Follows local `$ref`s in the document they belong to.
 * @param {OpenApiDocument} doc
 * @param {Json} schema
 */
function resolve(doc, schema) {
  let s = schema;
  for (let hops = 0; s?.$ref && hops < 20; hops++) {
    const [, , kind = '', name = ''] = String(s.$ref).split('/');
    s = doc.components?.[kind]?.[name];
  }
  return s;
}

/**
 * `value` with every local `$ref` replaced by its target (a depth guard stops cycles).
 * @param {OpenApiDocument} doc
 * @param {Json} value
 * @returns {Json}
 */
function inline(doc, value, depth = 0) {
  if (depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => inline(doc, v, depth + 1));
  if (!value || typeof value !== 'object') return value;
  if (typeof value.$ref === 'string') return inline(doc, resolve(doc, value), depth + 1);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inline(doc, v, depth + 1)]));
}

/**
 * Enum values, which json-schema-diff does not compare (its KEYWORDS.md: `enum`: no). Walks a
 * request or response schema of both documents side by side. A value dropped anywhere is
 * breaking (clients send it, or code generated from the document names it); a value added to a
 * response is breaking (clients that switch over the documented values meet one they do not
 * know); a value added to a request only is compatible.
 * @param {OpenApiDocument} source
 * @param {OpenApiDocument} destination
 * @param {Json} a
 * @param {Json} b
 * @param {'request' | 'response'} context
 * @param {string} location
 * @param {Findings} out
 * @param {Set<string>} seen
 */
function enumDiff(source, destination, a, b, context, location, out, seen = new Set()) {
  if (a?.$ref || b?.$ref) {
    const key = `${a?.$ref}|${b?.$ref}|${context}`;
    if (seen.has(key)) return;
    seen.add(key);
  }
  const x = resolve(source, a);
  const y = resolve(destination, b);
  if (!x || !y || typeof x !== 'object' || typeof y !== 'object') return;
  /** @type {unknown[] | null} */
  const before = Array.isArray(x.enum) ? x.enum : null;
  /** @type {unknown[] | null} */
  const after = Array.isArray(y.enum) ? y.enum : null;
  const entry = { entity: 'enum', location, source: 'contract' };
  // An enum appearing where there was none narrows; one disappearing widens.
  const removed = after !== null && (before === null || before.some((v) => !after.includes(v)));
  const added = before !== null && (after === null || after.some((v) => !before.includes(v)));
  if (removed) out.breaking.push({ ...entry, code: `${context}.enum.remove`, action: 'remove' });
  if (added)
    (context === 'response' ? out.breaking : out.nonBreaking).push({
      ...entry,
      code: `${context}.enum.add`,
      action: 'add',
    });
  for (const [name, sub] of Object.entries(x.properties ?? {}))
    if (y.properties?.[name])
      enumDiff(source, destination, sub, y.properties[name], context, `${location}.${name}`, out, seen);
  if (x.items && y.items)
    enumDiff(source, destination, x.items, y.items, context, `${location}[]`, out, seen);
  if (typeof x.additionalProperties === 'object' && typeof y.additionalProperties === 'object')
    enumDiff(
      source,
      destination,
      x.additionalProperties,
      y.additionalProperties,
      context,
      `${location}{}`,
      out,
      seen,
    );
  for (const combinator of ['allOf', 'anyOf', 'oneOf'])
    (x[combinator] ?? []).forEach((/** @type {Json} */ sub, /** @type {number} */ i) => {
      const other = y[combinator]?.[i];
      if (other)
        enumDiff(source, destination, sub, other, context, `${location}.${combinator}[${i}]`, out, seen);
    });
}

/**
 * What openapi-diff does not look at (its docs/OPENAPI3.md and json-schema-diff's
 * KEYWORDS.md): parameters, security, operationIds, operation extensions (`x-roles`, `x-scope`)
 * and enums.
 * Any change there is breaking for a frozen contract, except a new optional parameter and a
 * request enum that grows.
 * @param {OpenApiDocument} source
 * @param {OpenApiDocument} destination
 * @returns {Findings}
 */
function supplementaryDiff(source, destination) {
  /** @type {Findings} */
  const out = { breaking: [], nonBreaking: [], unclassified: [] };
  /** @param {string} code @param {string} entity @param {string} location */
  const breaking = (code, entity, location) =>
    out.breaking.push({ code, entity, action: 'remove', location, source: 'contract' });
  /** @param {Json} p */
  const parameterKey = (p) => `${p.in}:${p.name}`;
  for (const [path, item] of Object.entries(source.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const before = item[method];
      const after = destination.paths?.[path]?.[method];
      if (!before || !after) continue; // a removed path or method: openapi-diff reports it
      const location = `paths.${path}.${method}`;
      if (JSON.stringify(before.security ?? null) !== JSON.stringify(after.security ?? null))
        breaking('security.change', 'security', location);
      // Generated clients name their methods after the operationId: renaming or dropping one
      // breaks them; giving an operation its first one does not.
      if (before.operationId !== undefined && before.operationId !== after.operationId)
        breaking('operation-id.change', 'operationId', `${location}.operationId`);
      else if (before.operationId === undefined && after.operationId !== undefined)
        out.nonBreaking.push({
          code: 'operation-id.add',
          entity: 'operationId',
          action: 'add',
          location: `${location}.operationId`,
          source: 'contract',
        });
      for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
        if (key.startsWith('x-') && JSON.stringify(before[key]) !== JSON.stringify(after[key]))
          breaking('extension.change', key, `${location}.${key}`);

      /** @type {Map<string, Json>} */
      const old = new Map((before.parameters ?? []).map((/** @type {Json} */ p) => [parameterKey(p), p]));
      /** @type {Map<string, Json>} */
      const now = new Map((after.parameters ?? []).map((/** @type {Json} */ p) => [parameterKey(p), p]));
      for (const [key, p] of old) {
        const q = now.get(key);
        const at = `${location}.parameters.${key}`;
        if (!q) breaking('parameter.remove', 'parameter', at);
        else if (
          JSON.stringify(p.schema) !== JSON.stringify(q.schema) ||
          Boolean(p.required) !== Boolean(q.required)
        )
          breaking('parameter.change', 'parameter', at);
      }
      for (const [key, q] of now) {
        if (old.has(key)) continue;
        const at = `${location}.parameters.${key}`;
        if (q.required) breaking('parameter.required.add', 'parameter', at);
        else
          out.nonBreaking.push({
            code: 'parameter.optional.add',
            entity: 'parameter',
            action: 'add',
            location: at,
            source: 'contract',
          });
      }

      for (const [type, media] of Object.entries(before.requestBody?.content ?? {}))
        enumDiff(
          source,
          destination,
          media.schema,
          after.requestBody?.content?.[type]?.schema,
          'request',
          `${location}.requestBody`,
          out,
        );
      for (const [status, response] of Object.entries(before.responses ?? {}))
        for (const [type, media] of Object.entries(response.content ?? {}))
          enumDiff(
            source,
            destination,
            media.schema,
            after.responses?.[status]?.content?.[type]?.schema,
            'response',
            `${location}.responses.${status}`,
            out,
          );
    }
  }
  return out;
}

/**
 * The document with each webhook event as an operation of its own, so openapi-diff and the
 * checks above compare events as they compare the rest: a `POST` at `/x-webhooks/<type>` whose
 * 200 response is the event's body. A response, because we send it and receivers read it (as
 * clients read responses): a removed or retyped field, a value a field did not have before, or a
 * removed event type (`path.remove`) breaks them; a new optional field or a new event type does
 * not (though subscribing to a new type adds a `WebhookEventType` value, which the enum check
 * reports as it does any value added to a response). A body that is a union with a discriminator mapping (`WebhookEvent`) gives one operation
 * per member, named by its `type`. `x-webhooks` itself is left out.
 * @param {OpenApiDocument} doc
 * @returns {OpenApiDocument}
 */
export function webhooksAsOperations(doc) {
  const { 'x-webhooks': webhooks, ...rest } = doc;
  if (!webhooks) return doc;
  /** @type {Record<string, Json>} */
  const paths = { ...rest.paths };
  for (const [name, item] of Object.entries(webhooks))
    for (const method of HTTP_METHODS)
      for (const [media, content] of Object.entries(item?.[method]?.requestBody?.content ?? {})) {
        /** @type {Record<string, string> | undefined} */
        const mapping = resolve(doc, content.schema)?.discriminator?.mapping;
        const members = mapping
          ? Object.entries(mapping).map(([type, ref]) => [type, { $ref: ref }])
          : [[name, content.schema]];
        for (const [type, schema] of members) {
          const path = `${WEBHOOK_PREFIX}${type}`;
          if (rest.paths?.[path]) throw new Error(`${path} is a path of the document`);
          paths[path] ??= {
            post: { responses: { 200: { description: `The webhook event ${type}.`, content: {} } } },
          };
          paths[path].post.responses['200'].content[media] = { schema };
        }
      }
  return { ...rest, paths };
}

/**
 * Both documents without what is the same on both sides (after inlining references): whole
 * operations, and within a changed operation its equal request body and responses.
 * openapi-diff runs json-schema-diff on every response of an operation, at tens of
 * milliseconds each even when nothing changed (a new Ajv per call); leaving equal parts out
 * keeps a check well under a second and cannot change its verdict, since equal parts have no
 * differences to report.
 * @param {OpenApiDocument} source
 * @param {OpenApiDocument} destination
 */
function withoutEqualParts(source, destination) {
  const a = structuredClone(source);
  const b = structuredClone(destination);
  /** @param {Json} x @param {Json} y */
  const same = (x, y) => JSON.stringify(inline(source, x)) === JSON.stringify(inline(destination, y));
  /** @param {Json} item */
  const hasOperation = (item) => HTTP_METHODS.some((m) => item[m]);
  for (const [path, item] of Object.entries(a.paths ?? {})) {
    const other = b.paths?.[path];
    if (!other) continue;
    for (const method of HTTP_METHODS) {
      const x = item[method];
      const y = other[method];
      if (!x || !y) continue;
      if (same(x, y)) {
        delete item[method];
        delete other[method];
        continue;
      }
      if (x.requestBody && y.requestBody && same(x.requestBody, y.requestBody)) {
        delete x.requestBody;
        delete y.requestBody;
      }
      const statuses = Object.keys(x.responses ?? {});
      const equal = statuses.filter((s) => y.responses?.[s] && same(x.responses[s], y.responses[s]));
      // OpenAPI needs at least one response per operation: keep one when all are equal.
      for (const status of equal.length === statuses.length ? equal.slice(1) : equal) {
        delete x.responses[status];
        delete y.responses[status];
      }
    }
    if (!hasOperation(item) && !hasOperation(other)) {
      delete a.paths[path];
      delete b.paths[path];
    }
  }
  return [a, b];
}

/**
 * @param {Json} result an openapi-diff difference
 * @returns {Finding}
 */
const finding = (result) => ({
  code: result.code,
  entity: result.entity,
  action: result.action,
  location:
    [...(result.sourceSpecEntityDetails ?? []), ...(result.destinationSpecEntityDetails ?? [])][0]
      ?.location ?? '',
  source: result.source,
});

/**
 * Diffs a destination (the new document) against a source (the frozen snapshot) with
 * openapi-diff plus the supplementary checks, webhook events included (`webhooksAsOperations`).
 * Unclassified differences count against `ok`: a frozen contract takes no change that nobody has
 * classified.
 * @param {OpenApiDocument} snapshot the source
 * @param {OpenApiDocument} generated the destination
 * @returns {Promise<ContractDiff>}
 */
export async function diffContract(snapshot, generated) {
  const source = webhooksAsOperations(snapshot);
  const destination = webhooksAsOperations(generated);
  const [a, b] = withoutEqualParts(source, destination);
  const outcome = await openapiDiff.diffSpecs({
    sourceSpec: { content: JSON.stringify(a), location: 'snapshot', format: 'openapi3' },
    destinationSpec: { content: JSON.stringify(b), location: 'generated', format: 'openapi3' },
  });
  const extra = supplementaryDiff(source, destination);
  const breaking = [
    ...(outcome.breakingDifferencesFound ? outcome.breakingDifferences.map(finding) : []),
    ...extra.breaking,
  ];
  const nonBreaking = [...outcome.nonBreakingDifferences.map(finding), ...extra.nonBreaking];
  const unclassified = outcome.unclassifiedDifferences.map(finding);
  return { ok: breaking.length === 0 && unclassified.length === 0, breaking, nonBreaking, unclassified };
}

/**
 * RFC 6902 JSON Patch (`add`, `remove`, `replace`, `move`) applied to a copy. Fixtures are
 * patches of the current snapshot rather than full copies, so they keep testing the detector
 * after additive snapshot updates.
 * @param {OpenApiDocument} doc
 * @param {PatchOperation[]} operations
 * @returns {OpenApiDocument}
 */
export function applyPatch(doc, operations) {
  const copy = structuredClone(doc);
  /** @param {string} pointer */
  const locate = (pointer) => {
    const tokens = pointer
      .split('/')
      .slice(1)
      .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = tokens.pop() ?? '';
    /** @type {Json} */
    let parent = copy;
    for (const t of tokens) {
      parent = parent?.[t];
      if (parent === undefined) throw new Error(`Patch path ${pointer} does not exist`);
    }
    return { parent, last };
  };
  /** @param {string} pointer */
  const take = (pointer) => {
    const { parent, last } = locate(pointer);
    if (!(last in parent)) throw new Error(`Patch path ${pointer} does not exist`);
    const value = parent[last];
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    return value;
  };
  /** @param {string} pointer @param {unknown} value @param {boolean} replace */
  const put = (pointer, value, replace) => {
    const { parent, last } = locate(pointer);
    if (replace && !(last in parent)) throw new Error(`Patch path ${pointer} does not exist`);
    if (Array.isArray(parent) && !replace)
      parent.splice(last === '-' ? parent.length : Number(last), 0, value);
    else parent[last] = value;
  };
  for (const op of operations) {
    if (op.op === 'add') put(op.path, structuredClone(op.value), false);
    else if (op.op === 'replace') put(op.path, structuredClone(op.value), true);
    else if (op.op === 'remove') take(op.path);
    else if (op.op === 'move') put(op.path, take(op.from ?? ''), false);
    else throw new Error(`Unsupported patch operation ${JSON.stringify(op)}`);
  }
  return copy;
}

/**
 * @param {string} root the repository root
 * @returns {Fixture[]}
 */
export function readFixtures(root) {
  const dir = join(root, FIXTURES_DIR);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((file) => ({ name: file.replace(/\.yaml$/, ''), ...parse(readFileSync(join(dir, file), 'utf8')) }));
}

/**
 * @param {string} root the repository root
 * @returns {OpenApiDocument}
 */
export function readSnapshot(root) {
  return parse(readFileSync(join(root, SNAPSHOT_PATH), 'utf8'));
}

/**
 * Everything test/contract.test.ts asserts, computed in Node: the generated document's v1
 * part against the snapshot, and each fixture (a patched copy of the snapshot) against it.
 * @param {string} root the repository root
 * @param {OpenApiDocument} generated the whole generated document
 * @returns {Promise<ContractVerdicts>}
 */
export async function contractVerdicts(root, generated) {
  const snapshot = readSnapshot(root);
  const current = v1Subset(generated);
  const fixtures = [];
  for (const fixture of readFixtures(root)) {
    /** @type {ContractDiff} */
    let result;
    try {
      result = await diffContract(snapshot, applyPatch(snapshot, fixture.patch));
    } catch (err) {
      result = { ok: false, breaking: [], nonBreaking: [], unclassified: [], error: String(err) };
    }
    fixtures.push({
      ...result,
      name: fixture.name,
      description: fixture.description,
      expect: fixture.expect,
    });
  }
  return {
    snapshotIsCurrent: JSON.stringify(snapshot) === JSON.stringify(current),
    current: await diffContract(snapshot, current),
    fixtures,
  };
}
