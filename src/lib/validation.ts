import { z } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import { hiddenCharacterReason, mixedScriptReason } from '../domain/alias';
import type { FieldError } from './problem';
import { ProblemError } from './problem';

const escapePointerToken = (token: PropertyKey) => String(token).replaceAll('~', '~0').replaceAll('/', '~1');

/** Zod issues → RFC 9457 `errors` with JSON-Pointer fragments (`#/a/0/b`, `#/query/limit`). */
export function fieldErrors(error: ZodError, prefix: string[] = []): FieldError[] {
  const pointer = (tokens: PropertyKey[]) => ['#', ...prefix, ...tokens.map(escapePointerToken)].join('/');
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ pointer: pointer([...issue.path, key]), detail: 'Unknown field' }));
    }
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    return [{ pointer: pointer(issue.path), detail: missing ? 'Required' : issue.message }];
  });
}

/**
 * The zod hook every router shares. A body that parses but fails the schema is a 422; an
 * invalid path, query or header parameter is a 400 (`invalid-parameters`).
 */
export function validationHook(
  result: { target: string } & ({ success: true } | { success: false; error: ZodError }),
) {
  if (result.success) return;
  if (result.target === 'json' || result.target === 'form') {
    throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
      errors: fieldErrors(result.error),
    });
  }
  const location = result.target === 'param' ? 'path' : result.target;
  throw new ProblemError('invalid-parameters', `Invalid ${location} parameter.`, {
    errors: fieldErrors(result.error, [location]),
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
