import { z } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { hiddenCharacterReason, mixedScriptReason } from '../domain/alias';
import type { FieldError } from '../lib/problem';
import { ProblemError } from '../lib/problem';

const escapePointerToken = (token: PropertyKey) => String(token).replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Most entries a problem's `errors` lists. A body can hold far more mistakes than anyone reads
 * (350,000 unknown fields fit in the integrity check's 5 MiB): listing each made a 4 MB request
 * answer 17 MB. The first ones are listed and the detail says how many there were.
 */
export const MAX_FIELD_ERRORS = 50;

/**
 * Zod issues → RFC 9457 `errors` with JSON-Pointer fragments (`#/a/0/b`, `#/query/limit`): at most
 * `max` of them (the first, in the schema's order), with `total` the number there were.
 */
export function fieldErrors(
  error: ZodError,
  prefix: string[] = [],
  max = MAX_FIELD_ERRORS,
): { errors: FieldError[]; total: number } {
  const pointer = (tokens: PropertyKey[]) => ['#', ...prefix, ...tokens.map(escapePointerToken)].join('/');
  const errors: FieldError[] = [];
  let total = 0;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys.slice(0, Math.max(0, max - errors.length)))
        errors.push({ pointer: pointer([...issue.path, key]), detail: 'Unknown field' });
      total += issue.keys.length;
      continue;
    }
    total += 1;
    if (errors.length >= max) continue;
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    errors.push({ pointer: pointer(issue.path), detail: missing ? 'Required' : issue.message });
  }
  return { errors, total };
}

/** The problem's detail, saying when `errors` lists only the first of them. */
const withCount = (detail: string, { errors, total }: { errors: FieldError[]; total: number }) =>
  total > errors.length
    ? `${detail.replace(/\.$/, '')} (${total} errors; the first ${errors.length} are listed).`
    : detail;

/**
 * The zod hook every router shares. A body that parses but fails the schema is a 422; an
 * invalid path, query or header parameter is a 400 (`invalid-parameters`).
 */
export function validationHook(
  result: { target: string } & ({ success: true } | { success: false; error: ZodError }),
) {
  if (result.success) return;
  if (result.target === 'json' || result.target === 'form') {
    const found = fieldErrors(result.error);
    throw new ProblemError(
      'validation-failed',
      withCount('The request body does not match the schema.', found),
      {
        errors: found.errors,
      },
    );
  }
  const location = result.target === 'param' ? 'path' : result.target;
  const found = fieldErrors(result.error, [location]);
  throw new ProblemError('invalid-parameters', withCount(`Invalid ${location} parameter.`, found), {
    errors: found.errors,
  });
}

/**
 * A trimmed, non-empty string of at most `max` characters that is shown publicly (a display
 * name, an organisation name, a brief title): control, bidirectional and invisible characters
 * are a 422 with the character named (`hiddenCharacterReason`), so nobody can spoof what a
 * leaderboard, a verification or a credential shows.
 */
export const shownText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .superRefine((value, ctx) => {
      const reason = hiddenCharacterReason(value);
      if (reason) ctx.addIssue({ code: 'custom', message: reason });
    });

/**
 * A person's or an organisation's name as `shownText`, whose words may not mix scripts the way
 * a spoof does (`mixedScriptReason`: "Асme" with Cyrillic letters in a Latin word is a 422).
 */
export const shownName = (max: number) =>
  shownText(max).superRefine((value, ctx) => {
    if (hiddenCharacterReason(value)) return;
    const reason = mixedScriptReason(value);
    if (reason) ctx.addIssue({ code: 'custom', message: reason });
  });

/** Most distinct inputs a memoised schema remembers; emptied when full (a bound, not an eviction policy). */
const MAX_MEMOISED_INPUTS = 512;

/**
 * Memoises a schema's successful parses by their input, for the query of a public hot read
 * (the leaderboard and its embed): their visitors send the same few query strings over and over,
 * and parsing them again was about a tenth of the isolate's time on those routes (issue 43).
 * Only for schemas whose result depends on the input alone (no clock, no randomness, no
 * transform with side effects); a failure is not kept, so a refusal is parsed and explained each
 * time. The parsed value is frozen: every request shares it. Returns the schema it was given.
 */
export function memoiseParse<S extends z.ZodType>(schema: S, max = MAX_MEMOISED_INPUTS): S {
  type Result = z.ZodSafeParseResult<z.output<S>>;
  const parse = schema.safeParseAsync.bind(schema);
  const known = new Map<string, Result>();
  schema.safeParseAsync = async (input, params) => {
    const key = params === undefined ? JSON.stringify(input) : undefined;
    const hit = key === undefined ? undefined : known.get(key);
    if (hit) return hit;
    const result = await parse(input, params);
    if (key !== undefined && result.success) {
      if (typeof result.data === 'object' && result.data !== null) Object.freeze(result.data);
      if (known.size >= max) known.clear();
      known.set(key, Object.freeze(result) as Result);
    }
    return result;
  };
  return schema;
}
