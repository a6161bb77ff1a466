/**
 * Property-based fuzzing of every documented operation, driven by the OpenAPI document the code
 * generates. For each operation fast-check builds hostile requests: bodies that are valid, valid
 * but mutated somewhere (a field dropped, added, retyped, pushed past a bound), of the wrong type
 * or not JSON at all, with odd strings (NUL, RTL override, emoji, lone surrogates, 70k
 * characters), wrong content types, hostile path and query parameters, and callers that are
 * anonymous, forged, of the right role or key scope, or of the wrong one. Every response must:
 * - not be a 5xx;
 * - conform to the document (through `call()`: documented status, content type and body);
 * - when it refuses (4xx), be problem+json (or the documented page for a browser asking for
 *   HTML) and leave the database as it was.
 *
 * `FUZZ_RUNS` (runs per operation; by default as many as make 5,000 requests over all operations,
 * 45 for 113 operations) and `FUZZ_SEED` (replay a failure with the seed fast-check prints) come
 * from the environment through vitest.config.ts. Each run draws a new seed, so the cases tried
 * add up over the runs of the suite; a deeper run is `FUZZ_RUNS=110` (12,000 requests, the
 * default before the suite's time was cut: docs/testing.md).
 */
import { env } from 'cloudflare:test';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { CANONICAL_SERVER_URL, openApiDocument } from '../src/http/openapi';
import { BODY_LIMIT_BYTES, INTEGRITY_BODY_LIMIT_BYTES } from '../src/middleware/body-limits';
import { certify, DEMO_BRIEF, issueKey, loginAdmin, signup } from './harness';
import { type Account, as, call, expectProblem, jsonInit, ORIGIN } from './helpers';

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  nullable?: boolean;
  additionalProperties?: boolean | Schema;
};
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema };
type Operation = {
  security?: Record<string, string[]>[];
  'x-roles'?: string[];
  'x-scope'?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};

const document = openApiDocument(app, CANONICAL_SERVER_URL) as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);

/** The requests a default run sends at least, spread evenly over the operations. */
const MIN_REQUESTS = 5000;
const RUNS = Number(env.FUZZ_RUNS) || Math.ceil(MIN_REQUESTS / operations.length);
const SEED = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : undefined;

// Requests that pass authentication can only succeed here, and succeeding ends the caller's
// session (logout, erasure): they are fuzzed with callers that must be refused.
const ENDS_THE_SESSION = new Set(['post /api/auth/logout', 'delete /api/dsr/erasure']);

// ---------------------------------------------------------------------------------------------
// Hostile values

const ODD = [
  '\u0000',
  '\u202E',
  '\u200B',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
  '\uFFFF',
  '🙂',
  '👩🏽‍💻',
  '𝕏',
  'é',
  'ß',
  'İ',
  '\n',
  '\r\n',
  '\t',
  '"',
  '\\',
  '<',
  '>',
  '&',
  "'",
  '/',
  '%',
  '\u0085',
  '\u2028',
];
const oddChar = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz  '.split('')) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
);
const oddString = (maxLength = 40) => fc.string({ unit: oddChar, maxLength });
const SPECIAL_STRINGS = [
  '',
  ' ',
  '   \t\n',
  '\u0000',
  'a\u0000b',
  '\u202Egnp.exe',
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '../../../etc/passwd',
  '%00',
  '%',
  '{{7*7}}',
  '$' + '{jndi:ldap://x}', // Log4Shell, spelled so it is not a template
  'null',
  'undefined',
  '__proto__',
  'constructor',
  'NaN',
  '-1',
  '1e309',
  '🙂'.repeat(300),
  '\uD83D',
  'x'.repeat(10_001),
  'é'.repeat(70_000),
];
const hostileString = fc.oneof(
  { weight: 3, arbitrary: oddString() },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
);
const SPECIAL_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  1e-300,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e308,
  Number.MAX_VALUE,
];
const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(...SPECIAL_NUMBERS),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    hostileNumber,
    hostileString,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(oddString(8), tie('value'), { maxKeys: 3 }),
  ),
})).value;

// ---------------------------------------------------------------------------------------------
// Values from the document's schemas

function resolve(schema: Schema): Schema {
  let s = schema;
  while (s.$ref) s = document.components.schemas[s.$ref.replace('#/components/schemas/', '')]!;
  if (s.allOf) {
    const parts = s.allOf.map(resolve);
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
      required: parts.flatMap((p) => p.required ?? []),
    };
  }
  return s;
}

/** Values the schema accepts (mostly: zod adds rules such as `trim`), with odd characters. */
function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const value = ((): fc.Arbitrary<unknown> => {
    if (s.enum) return fc.constantFrom(...s.enum);
    switch (s.type) {
      case 'string': {
        if (s.format === 'email') return fc.emailAddress();
        if (s.format === 'date-time')
          return fc
            .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString());
        if (s.format === 'uri') return fc.webUrl();
        const min = s.minLength ?? 0;
        const max = Math.min(s.maxLength ?? 60, Math.max(min, 60));
        return fc.oneof(
          { weight: 3, arbitrary: fc.string({ unit: oddChar, minLength: Math.max(min, 1), maxLength: max }) },
          { weight: 1, arbitrary: fc.lorem({ maxCount: 12, mode: 'sentences' }) },
        );
      }
      case 'integer':
        return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
      case 'number':
        return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(depth > 4 ? fc.constant(null) : valid(s.items ?? {}, depth + 1), {
          minLength: s.minItems ?? 0,
          maxLength: Math.min(s.maxItems ?? 3, Math.max(s.minItems ?? 0, 3)),
        });
      case 'object': {
        const properties = s.properties ?? {};
        if (depth > 4 || Object.keys(properties).length === 0) return fc.constant({});
        return fc.record(
          Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, valid(v, depth + 1)])),
          { requiredKeys: (s.required ?? []).filter((k) => k in properties) },
        );
      }
      default:
        return hostileValue;
    }
  })();
  return s.nullable ? fc.option(value, { nil: null, freq: 5 }) : value;
}

/** Values just outside (or on) the schema's bounds. */
function boundary(schema: Schema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  switch (s.type) {
    case 'integer':
    case 'number': {
      const edges = [s.minimum, s.maximum].filter((n): n is number => n !== undefined);
      return fc.constantFrom(
        ...edges.flatMap((n) => [n - 1, n, n + 1, n + 0.5]),
        ...SPECIAL_NUMBERS,
        '1',
        true,
      );
    }
    case 'string': {
      const lengths = [s.minLength, s.maxLength].filter((n): n is number => n !== undefined && n < 3_000_000);
      return fc
        .constantFrom(...lengths.flatMap((n) => [n - 1, n + 1]).filter((n) => n >= 0), 0)
        .chain((n) =>
          fc.constantFrom('x'.repeat(n), ' '.repeat(n), '🙂'.repeat(Math.ceil(n / 2)), 7, null, ['x']),
        );
    }
    case 'array': {
      const n = (s.maxItems ?? 20) + 1;
      return valid(s.items ?? {}).map((item) => [...Array.from({ length: Math.min(n, 6000) }, () => item)]);
    }
    default:
      return hostileValue;
  }
}

type Step = (string | number)[];

/** Every place in a value that the schema describes, with the schema for it. */
function places(value: unknown, schema: Schema, at: Step = []): { at: Step; schema: Schema }[] {
  const s = resolve(schema);
  const here = at.length > 0 ? [{ at, schema: s }] : [];
  if (Array.isArray(value) && s.items)
    return [...here, ...value.slice(0, 3).flatMap((v, i) => places(v, s.items!, [...at, i]))];
  if (value && typeof value === 'object' && s.properties)
    return [
      ...here,
      ...Object.entries(value).flatMap(([k, v]) =>
        s.properties![k] ? places(v, s.properties![k]!, [...at, k]) : [],
      ),
    ];
  return here;
}

/** A copy of `value` with `change` applied to the parent of the place `at`. */
function changeAt(
  value: unknown,
  at: Step,
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const step of at.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  change(parent, at[at.length - 1]!);
  return copy;
}

const removeAt = (value: unknown, at: Step) =>
  changeAt(value, at, (p, k) => {
    if (Array.isArray(p)) p.splice(Number(k), 1);
    else delete p[k];
  });
const replaceAt = (value: unknown, at: Step, x: unknown) =>
  changeAt(value, at, (p, k) => {
    p[k] = x;
  });
const addBeside = (value: unknown, at: Step, name: string, x: unknown) =>
  changeAt(value, at, (p) => {
    if (!Array.isArray(p)) Object.defineProperty(p, name, { value: x, enumerable: true, writable: true });
  });

/** A valid value with one place broken: dropped, retyped, pushed past a bound, or given a sibling. */
function mutated(schema: Schema): fc.Arbitrary<unknown> {
  return valid(schema).chain((value) => {
    const spots = places(value, schema);
    if (spots.length === 0) return fc.constant(value);
    return fc.constantFrom(...spots).chain(({ at, schema: s }) =>
      fc.oneof(
        fc.constant(removeAt(value, at)),
        hostileValue.map((x) => replaceAt(value, at, x)),
        boundary(s).map((x) => replaceAt(value, at, x)),
        fc
          .tuple(
            fc.oneof(oddString(12), fc.constantFrom('__proto__', 'constructor', 'role', 'id', 'isAdmin')),
            hostileValue,
          )
          .map(([name, x]) => addBeside(value, at, name, x)),
      ),
    );
  });
}

const MALFORMED_JSON = [
  '{',
  '{"a":',
  '[1,2',
  '{"a":1,}',
  "{'a':1}",
  'NaN',
  '\uFEFF{}',
  '{"a":1}{"b":2}',
  '{"x":1,"x":2}',
  '{"__proto__":{"role":"admin"}}',
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  `{"a":"${'\\u0000'.repeat(100)}"}`,
  '"\\ud800"',
  '',
  ' ',
  'null',
  'true',
  '0',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/problem+json',
  'application/json, text/plain',
  '',
];

type Body = { text: string | undefined; contentType: string | undefined };

function body(op: Operation): fc.Arbitrary<Body> {
  const schema = op.requestBody?.content['application/json']?.schema;
  const json = (value: fc.Arbitrary<unknown>) =>
    value.map((v) => ({
      text: JSON.stringify(v) ?? 'null',
      contentType: 'application/json' as string | undefined,
    }));
  const junk = fc.oneof(
    fc.constantFrom(...MALFORMED_JSON).map((text) => ({ text, contentType: 'application/json' })),
    fc
      .tuple(
        fc.constantFrom(...CONTENT_TYPES, undefined),
        fc.oneof(oddString(80), fc.constantFrom('{}', 'a=b&role=admin')),
      )
      .map(([contentType, text]) => ({ text, contentType })),
    fc.constant({ text: 'x'.repeat(BODY_LIMIT_BYTES + 1), contentType: 'application/json' }),
  );
  // Routes that also take a baked badge's own bytes (the credential verifier): damaged, empty or
  // mislabelled images under each declared image type.
  const imageTypes = Object.keys(op.requestBody?.content ?? {}).filter((t) => t.startsWith('image/'));
  const images =
    imageTypes.length === 0
      ? null
      : fc
          .tuple(
            fc.constantFrom(...imageTypes),
            fc.oneof(
              oddString(200),
              fc.constantFrom('', '\u0089PNG\r\n\u001a\n', '<svg xmlns="http://www.w3.org/2000/svg"/>', '{}'),
            ),
          )
          .map(([contentType, text]) => ({ text, contentType: contentType as string | undefined }));
  if (!schema)
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant({ text: undefined, contentType: undefined }) },
      { weight: 1, arbitrary: junk },
      { weight: 1, arbitrary: json(hostileValue) },
    );
  return fc.oneof(
    { weight: 3, arbitrary: json(valid(schema)) },
    { weight: 5, arbitrary: json(mutated(schema)) },
    { weight: 1, arbitrary: json(hostileValue) },
    { weight: 2, arbitrary: junk },
    { weight: 1, arbitrary: json(valid(schema)).map((b) => ({ ...b, contentType: undefined })) },
    ...(images ? [{ weight: 3, arbitrary: images }] : []),
  );
}

// ---------------------------------------------------------------------------------------------
// Callers, paths and queries

type Role = 'candidate' | 'employer' | 'admin';
type Pools = Record<Role, Account[]> & {
  keys: string[];
  narrowKey: string;
  ids: string[];
};
let pools: Pools;
const turn: Record<string, number> = {};
/** The next account of a role, round-robin, so no user meets the 60-a-minute limit. */
const next = <T>(name: string, list: T[]): T => {
  turn[name] = ((turn[name] ?? 0) + 1) % list.length;
  return list[turn[name]!]!;
};

type Caller = { headers: Record<string, string>; label: string };

function callers(key: string, op: Operation): fc.Arbitrary<() => Caller> {
  const scheme = Object.keys(op.security?.[0] ?? {})[0];
  const roles = (op['x-roles'] ?? ['candidate', 'employer', 'admin']) as Role[];
  const otherRoles = (['candidate', 'employer', 'admin'] as const).filter((r) => !roles.includes(r));
  const session =
    (role: Role, extra: Record<string, string> = {}) =>
    () => ({
      headers: as(next(role, pools[role]), extra),
      label: `${role} session`,
    });
  const anonymous = fc.constantFrom(
    () => ({ headers: {}, label: 'anonymous' }),
    () => ({
      headers: { cookie: 'session=forged-token-0000000000000000000000000', origin: ORIGIN },
      label: 'forged session',
    }),
    () => ({ headers: { 'X-Service-Key': `vpk_${'A'.repeat(43)}` }, label: 'forged key' }),
    () => ({ headers: { 'X-Service-Key': "' OR 1=1 --" }, label: 'injected key' }),
  );
  if (scheme === 'serviceKey')
    return fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constant(() => ({
          headers: { 'X-Service-Key': next('keys', pools.keys) },
          label: 'key',
        })),
      },
      {
        weight: 1,
        arbitrary: fc.constant(() => ({
          headers: { 'X-Service-Key': pools.narrowKey },
          label: 'key without the scope',
        })),
      },
      { weight: 1, arbitrary: anonymous },
    );
  if (scheme === 'sessionCookie') {
    const right = ENDS_THE_SESSION.has(key)
      ? []
      : roles.map((role) => ({ weight: 6, arbitrary: fc.constant(session(role)) }));
    const wrong = otherRoles.map((role) => ({ weight: 1, arbitrary: fc.constant(session(role)) }));
    return fc.oneof(
      ...right,
      ...wrong,
      { weight: 1, arbitrary: anonymous },
      // Cross-site: no Origin, or someone else's.
      {
        weight: 1,
        arbitrary: fc.constantFrom(...roles).map((role) => session(role, { origin: 'https://evil.example' })),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...roles).map((role) => () => {
          const { origin: _o, ...headers } = as(next(role, pools[role]));
          return { headers, label: `${role} session without Origin` };
        }),
      },
    );
  }
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(() => ({ headers: {}, label: 'anonymous' })) },
    { weight: 1, arbitrary: anonymous },
  );
}

/** Percent-encodes a path segment; a lone surrogate becomes its (invalid) CESU-8 bytes. */
const encode = (value: unknown) =>
  Array.from(String(value), (ch) =>
    /^[\uD800-\uDFFF]$/.test(ch) ? '%ED%A0%80' : encodeURIComponent(ch),
  ).join('');

const RAW_SEGMENTS = ['%', '%E0%A4%A', '%00', '%2F', '%2e%2e', '..', '.', 'a%20b', '%C0%AF', '%FF%FE'];

function pathValue(parameter: Parameter): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: valid(parameter.schema).map(encode) },
    { weight: 2, arbitrary: fc.constantFrom(...pools.ids).map(encode) },
    { weight: 1, arbitrary: fc.uuid().map(encode) },
    { weight: 2, arbitrary: hostileString.map(encode) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('a'.repeat(65), 'a'.repeat(5000), 'VP-0000-0000-0000', 'vp-7k3m-q9td-2xwv'),
    },
  );
}

function queryString(op: Operation): fc.Arbitrary<string> {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  const one = (p: Parameter) =>
    fc.option(
      fc.oneof(
        { weight: 3, arbitrary: valid(p.schema).map(String) },
        {
          weight: 2,
          arbitrary: boundary(p.schema).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
        },
        { weight: 2, arbitrary: hostileString },
      ),
      { freq: 2 },
    );
  return fc
    .tuple(
      fc.tuple(
        ...params.map((p) => one(p).map((v) => (v === null ? [] : [[p.name, v] as [string, string]]))),
      ),
      fc.array(
        fc.tuple(
          fc.oneof(oddString(10), fc.constantFrom(...params.map((p) => p.name), 'role', '__proto__')),
          hostileString,
        ),
        {
          maxLength: 2,
        },
      ),
      fc.option(fc.constantFrom(...RAW_SEGMENTS, 'limit=1&limit=2', '&&&', '=x', 'a[b]=1'), { freq: 6 }),
    )
    .map(([known, extra, raw]) => {
      const search = new URLSearchParams([...known.flat(), ...extra]).toString();
      const all = [search, raw ?? ''].filter(Boolean).join('&');
      return all ? `?${all}` : '';
    });
}

// ---------------------------------------------------------------------------------------------
// The database, to see that a refusal changed nothing

let fingerprintSql = '';
/**
 * Row counts of every table, plus sums over the columns requests update in place. Left out:
 * what legitimately moves without a change of data (API-key `last_used_at` on any authenticated
 * call, session expiry sliding) and what background work of earlier accepted requests writes
 * (evaluations, fingerprints, submission state, and `api_key_usage`, which the rate limiter's
 * alarm writes behind: it counts refused requests too, by design).
 */
async function fingerprint(): Promise<Record<string, unknown>> {
  if (!fingerprintSql) {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'evaluations', 'fingerprints', 'fingerprint_frequencies', 'api_key_usage')",
    ).all<{ name: string }>();
    const counts = results.map(({ name }) => `(SELECT count(*) FROM "${name}") AS "${name}"`);
    const updates = [
      `(SELECT total(updated_at) + total(disabled_at) + total(length(name) + length(email) + length(coalesce(public_alias, '')) + length(password_hash)) FROM users) AS users_changed`,
      '(SELECT total(published_at) + total(closed_at) FROM briefs) AS briefs_changed',
      '(SELECT total(revoked_at) FROM api_keys) AS keys_changed',
      '(SELECT total(revoked_at) FROM certificates) AS certificates_changed',
      '(SELECT total(updated_at) + total(completed_at) FROM dsr_requests) AS dsr_changed',
    ];
    fingerprintSql = `SELECT ${[...counts, ...updates].join(', ')}`;
  }
  return (await env.DB.prepare(fingerprintSql).first()) ?? {};
}

// ---------------------------------------------------------------------------------------------

const stats = { requests: 0, refused: 0, limited: 0, accepted: 0 };
const limitedBy: Record<string, number> = {};
/** The database's fingerprint after the latest fuzzed request. */
let state: Record<string, unknown> = {};

beforeAll(async () => {
  const admin = await loginAdmin();
  const make = (role: 'candidate' | 'employer', n: number) =>
    Promise.all(Array.from({ length: n }, () => signup(role, 'Fuzz Person')));
  const [candidates, employers, promoted] = await Promise.all([
    make('candidate', 40),
    make('employer', 40),
    make('employer', 32),
  ]);
  // A test fixture: more admins than the one the secrets create, so admin routes can take the
  // fuzzer's pace under the 60-a-minute limit per user.
  for (const a of promoted)
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(a.id).run();
  const all = ['playbooks:generate', 'integrity:check', 'rubrics:generate'];
  const keys = await Promise.all([1, 2, 3].map(() => issueKey(admin, all)));
  const narrow = await issueKey(admin, ['integrity:check']);

  // Real ids, so hostile requests also reach existing objects they may not touch.
  const owner = employers[0]!;
  const holder = candidates[0]!;
  const { brief, submission, certificateNo } = await certify(owner, holder, { consents: ['ai_evaluation'] });

  pools = {
    candidate: candidates,
    employer: employers,
    admin: [admin, ...promoted],
    keys: keys.map((k) => k.key),
    narrowKey: narrow.key,
    ids: [
      brief.id,
      brief.playbook.milestones[0]!.id,
      submission.id,
      submission.evaluationId,
      certificateNo,
      admin.id,
      'v1',
    ],
  };
  state = await fingerprint();
}, 60_000);

afterAll(() => {
  const limited = stats.limited > 0 ? ` ${JSON.stringify(limitedBy)}` : '';
  console.log(
    `fuzz: ${stats.requests} requests (${stats.accepted} accepted, ${stats.refused} refused, ${stats.limited} rate-limited${limited})${SEED === undefined ? '' : `, seed ${SEED}`}`,
  );
});

/**
 * Paths whose refusals follow another standard than RFC 9457, as documented: the Open Badges and CLR
 * APIs answer the 1EdTech `Imsx_StatusInfo` JSON, the OAuth endpoints RFC 6749's error JSON, and
 * the authorization page refuses a request it cannot redirect with an HTML page, whatever is accepted.
 */
function refusalOfItsOwnStandard(path: string, contentType: string): boolean {
  if (
    path.startsWith('/ims/') ||
    path === '/oauth/register' ||
    path === '/oauth/token' ||
    path === '/oid4vci/token' ||
    path === '/oid4vci/credential'
  )
    return contentType.startsWith('application/json');
  return path === '/oauth/authorize' && contentType.startsWith('text/html');
}

describe.each(
  operations.map(({ path, method, op }) => [`${method.toUpperCase()} ${path}`, path, method, op] as const),
)('fuzzing %s', (label, path, method, op) => {
  const key = `${method} ${path}`;
  const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');

  it('answers every hostile request without a 5xx, refuses with problem+json and changes nothing', async () => {
    const request = fc.record({
      caller: callers(key, op),
      params: fc.tuple(...pathParams.map(pathValue)),
      query: queryString(op),
      body: body(op),
      ip: fc.ipV4(),
      acceptHtml: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ caller, params, query, body: b, ip, acceptHtml }) => {
        const who = caller();
        let url = path;
        pathParams.forEach((p, i) => {
          url = url.replace(`{${p.name}}`, params[i]!);
        });
        const headers: Record<string, string> = { ...who.headers, 'CF-Connecting-IP': ip };
        if (b.contentType !== undefined) headers['content-type'] = b.contentType;
        if (acceptHtml) headers.accept = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
        // A redirect (a page's form answering 303) is the answer under test, not the page it leads to.
        const init: RequestInit = { method: method.toUpperCase(), headers, redirect: 'manual' };
        // A string body would get `text/plain` from fetch; a typeless Blob goes without a type.
        if (b.text !== undefined && method !== 'get')
          init.body = b.contentType === undefined ? new Blob([b.text]) : b.text;
        const res = await call(`${url}${query}`, init);
        const contentType = res.headers.get('content-type') ?? '';
        await res.arrayBuffer();
        stats.requests += 1;
        const context = `${label} as ${who.label} → ${res.status}`;
        // DigiLocker's endpoints are not configured in the tests' Worker: 503 `not-configured`, as
        // documented (test/digilocker.test.ts configures them and fuzzes their XML).
        if (!(path.startsWith('/api/digilocker/') && res.status === 503))
          expect(res.status, context).toBeLessThan(500);
        if (res.status === 429) {
          stats.limited += 1;
          limitedBy[label] = (limitedBy[label] ?? 0) + 1;
        }
        // The state after the previous request is the state before this one: requests run
        // one at a time, and what runs in the background is left out of the fingerprint.
        const before = state;
        state = await fingerprint();
        if (res.status < 400) {
          stats.accepted += 1;
          return;
        }
        stats.refused += 1;
        const page = acceptHtml && contentType.startsWith('text/html');
        expect(
          page || contentType === 'application/problem+json' || refusalOfItsOwnStandard(path, contentType),
          `${context}: ${contentType}`,
        ).toBe(true);
        expect(state, `${context} changed the database`).toEqual(before);
      }),
      { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
    );
  }, 120_000);
});

describe('malformed UTF-8 (issue 41)', () => {
  const withBodies = operations.filter(({ op }) => op.requestBody?.content['application/json'] !== undefined);

  it('covers every operation with a JSON body', () => {
    expect(withBodies.length).toBeGreaterThan(20);
  });

  it('the OAuth token endpoint refuses a form body that is not UTF-8 (400 invalid_request), and takes a valid one to the library', async () => {
    const form = (bytes: number[]) =>
      call('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'CF-Connecting-IP': '203.0.113.42' },
        body: new Uint8Array([
          ...new TextEncoder().encode('grant_type=refresh_token&refresh_token='),
          ...bytes,
        ]),
      });
    const bad = await form([0xff, 0xfe, 0xc3]);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringContaining('UTF-8'),
    });
    // Well-formed bytes reach the library, which judges the grant itself.
    const good = await form([...new TextEncoder().encode('x')]);
    expect(good.status).not.toBe(500);
    expect(await good.json<{ error: string }>()).toHaveProperty('error');
  });

  // `ff fe c3` inside a JSON string: once turned into "\ufffd\ufffd\ufffd Org" and stored.
  const BAD = new Uint8Array([
    ...new TextEncoder().encode('{"name":"'),
    0xff,
    0xfe,
    0xc3,
    ...new TextEncoder().encode(' Org"}'),
  ]);

  it.each(withBodies.map(({ path, method }) => [`${method.toUpperCase()} ${path}`, path, method] as const))(
    '%s answers 400 invalid-encoding, whoever calls, and changes nothing',
    async (_label, path, method) => {
      const url = path.replace(/\{[^}]+\}/g, 'x');
      const before = await fingerprint();
      for (const headers of [
        {},
        as(pools.employer[1]!),
        as(pools.admin[0]!),
        { 'X-Service-Key': pools.keys[0]! },
      ]) {
        const res = await call(url, {
          method: method.toUpperCase(),
          headers: {
            ...headers,
            'content-type': 'application/json',
            origin: ORIGIN,
            'CF-Connecting-IP': '203.0.113.41',
          },
          body: BAD,
        });
        expect(res.status, `${method} ${path}`).toBe(400);
        if (path.startsWith('/oauth/')) {
          // The OAuth library's endpoints refuse in RFC 6749's shape, before the library reads the body.
          const error = await res.json<{ error: string; error_description: string }>();
          expect(error.error).toBe('invalid_request');
          expect(error.error_description).toContain('UTF-8');
          continue;
        }
        const problem = await res.json<{ type: string; detail: string }>();
        expect(problem.type).toBe('/problems/invalid-encoding');
        expect(problem.detail).toContain('UTF-8');
      }
      expect(await fingerprint()).toEqual(before);
    },
  );
});

/**
 * Depth, size and encoding budgets (issue 51, docs/security.md "Verifier (third round)"): every
 * operation that parses a JSON body checks its size and depth before any parser or validator
 * does, whoever calls; the public routes take hostile query strings and path parameters without
 * a 5xx; the verifier's own inputs (text, base64 badge, raw image bytes) are refused or answered.
 */
describe('depth, size and encoding budgets (issue 51)', () => {
  const apiBodies = operations.filter(
    ({ path, op }) => path.startsWith('/api/') && op.requestBody?.content['application/json'] !== undefined,
  );
  const publicOps = operations.filter(({ op }) => !op.security || op.security.length === 0);
  const send = (path: string, method: string, headers: Record<string, string>, body: BodyInit) =>
    call(path.replace(/\{[^}]+\}/g, 'x'), {
      method: method.toUpperCase(),
      headers: { origin: ORIGIN, 'CF-Connecting-IP': '203.0.113.51', ...headers },
      body,
    });
  const callersOf = () => [{}, as(pools.employer[1]!), { 'X-Service-Key': pools.keys[0]! }];

  it('covers the JSON-body operations and the public ones', () => {
    expect(apiBodies.length).toBeGreaterThan(20);
    expect(publicOps.length).toBeGreaterThan(5);
  });

  it.each(apiBodies.map(({ path, method }) => [`${method.toUpperCase()} ${path}`, path, method] as const))(
    '%s: a body nested 300 levels is a 422, over its limit a 413, gzip-coded a 415; nothing changes',
    async (_label, path, method) => {
      const before = await fingerprint();
      const deep = `{"a":${'['.repeat(300)}${']'.repeat(300)}}`;
      for (const headers of callersOf()) {
        const res = await send(path, method, { ...headers, 'content-type': 'application/json' }, deep);
        const problem = await expectProblem(res, 422, 'validation-failed');
        expect(problem.detail).toMatch(/deeper than 64 levels/);
      }
      const limit = path === '/api/v1/integrity/check' ? INTEGRITY_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES;
      const big = `{"a":"${'x'.repeat(limit)}"}`;
      await expectProblem(
        await send(path, method, { 'content-type': 'application/json' }, big),
        413,
        'payload-too-large',
      );
      await expectProblem(
        await send(path, method, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, '{}'),
        415,
        'unsupported-media-type',
      );
      expect(await fingerprint()).toEqual(before);
    },
  );

  it.each(publicOps.map(({ path, method }) => [`${method.toUpperCase()} ${path}`, path, method] as const))(
    '%s: hostile query strings and path parameters get no 5xx',
    async (_label, path, method) => {
      const params = ['%FF%FE', '%00', 'x'.repeat(8000), '..%2F..%2F', '%E2%80%AE', '[[[[', '{"a":1}'];
      for (const value of params) {
        const url = `${path.replace(/\{[^}]+\}/g, value)}?q=${value}&limit=${value}&cursor=${value}&${value}=${value}`;
        const res = await call(url, {
          method: method.toUpperCase(),
          headers: { origin: ORIGIN, 'CF-Connecting-IP': '203.0.113.52' },
          // A page's form answering 303 is the answer under test, not the page it leads to.
          redirect: 'manual',
          ...(method === 'get' ? {} : { body: '{}' }),
        });
        await res.arrayBuffer();
        // DigiLocker's endpoints answer 503 not-configured in the tests' Worker (documented).
        if (path.startsWith('/api/digilocker/') && res.status === 503) continue;
        expect(res.status, `${method} ${url.slice(0, 120)}`).toBeLessThan(500);
      }
    },
  );

  it('the verifier: hostile text, base64 and image bytes are answered (200) or refused (4xx), never a 5xx', async () => {
    const svgBomb = `<?xml version="1.0"?><!DOCTYPE svg [${'<!ENTITY a "aaaa">'.repeat(100)}]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>`;
    const bodies: [string, BodyInit][] = [
      ['application/json', JSON.stringify({ credential: `did:key:z${'2'.repeat(600_000)}` })],
      ['application/json', JSON.stringify({ credential: '\ud800.\udfff.x' })],
      ['application/json', JSON.stringify({ credential: `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}` })],
      ['application/json', JSON.stringify({ badge: '!!!not base64!!!' })],
      ['application/json', JSON.stringify({ badge: btoa(svgBomb) })],
      ['application/json', JSON.stringify({ credential: { issuer: `did:key:z${'2'.repeat(600_000)}` } })],
      ['image/svg+xml', svgBomb],
      ['image/svg+xml', `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(20_000)}`],
      ['image/svg+xml', new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x73, 0x00])],
      ['image/png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xff, 0xff, 0xff])],
      ['image/png', new Uint8Array(300_000).fill(0x89)],
    ];
    for (const [contentType, body] of bodies)
      for (const [path, headers] of [
        ['/api/credentials/verify', {}],
        ['/api/v1/credentials/verify', { 'X-Service-Key': pools.keys[0]! }],
      ] as const) {
        const started = Date.now();
        const res = await send(path, 'post', { ...headers, 'content-type': contentType }, body);
        await res.arrayBuffer();
        expect(res.status, `${path} ${contentType}`).toBeLessThan(500);
        expect(Date.now() - started, `${path} ${contentType}`).toBeLessThan(5000);
      }
  }, 120_000);
});

describe('regressions found by fuzzing', () => {
  it('refuses a client_id too long to name a client on the authorization page (400), not a 500 from the KV key limit', async () => {
    const res = await call(
      `/oauth/authorize?response_type=code&client_id=${'x'.repeat(600)}&state=7&resource=NaN&%FF%FE`,
      { headers: { 'CF-Connecting-IP': '203.0.113.43' } },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('keeps a rubric inside its documented bounds for a 20,000-character brief without punctuation', async () => {
    // The local engine quoted the whole "phrase" in every level descriptor (20,000 characters
    // against a documented maximum of 500); call() checks the response against the document.
    const brief = 'x'.repeat(20_000);
    const res = await call(
      '/api/rubrics/generate',
      jsonInit('POST', { brief }, { 'X-Service-Key': pools.keys[0]! }),
    );
    expect(res.status).toBe(200);
    // An employer of its own: the pool's have spent their 60 requests a minute on the fuzzing above.
    const employer = await signup('employer', 'Regression Employer');
    const created = await call(
      '/api/briefs',
      jsonInit(
        'POST',
        { ...DEMO_BRIEF, description: `${'word'.repeat(4_000)} must ${'y'.repeat(3_000)}` },
        as(employer),
      ),
    );
    expect(created.status).toBe(201);
    state = await fingerprint();
  });
});

describe('fuzzing as a whole', () => {
  it('sent thousands of requests, and the rate limits did not swallow them', () => {
    expect(stats.requests).toBe(RUNS * operations.length);
    if (!env.FUZZ_RUNS || RUNS >= 100) expect(stats.requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(stats.limited / stats.requests).toBeLessThan(0.05);
  });
});
