/**
 * The password policy, for every account (signup and the `ADMIN_PASSWORD` secret alike):
 * at least PASSWORD_MIN_LENGTH characters, and not guessable. Guessability is estimated with
 * zxcvbn (the TypeScript port, `@zxcvbn-ts/core`, pure JavaScript, so it runs in workerd)
 * against its common-password and diceware dictionaries, keyboard layouts, repeats,
 * sequences and dates, plus the account's own details (email, name): a password whose
 * estimated score is below MIN_SCORE (of 0–4) is refused with the reason the estimator gives.
 *
 * Score 3 means an estimated 10^8–10^10 guesses: "safely unguessable" for an online attack,
 * which the login limits already slow to a few dozen guesses per quarter hour.
 */
import { ZxcvbnFactory, type ZxcvbnResult } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;
/** Minimum zxcvbn score (0 = too guessable … 4 = very unguessable). */
export const MIN_SCORE = 3;
/**
 * zxcvbn's matching is superlinear in length; only this many leading characters are estimated.
 * A password this long that is still guessable in its first 100 characters is rare, and the
 * rest only adds guesses.
 */
const ESTIMATED_PREFIX = 100;

let estimator: ZxcvbnFactory | undefined;
/** Built on first use (the dictionaries are ranked once per isolate, a few milliseconds). */
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  return estimator;
}

/** The estimator's warning keys in words; keys not listed fall back to a generic reason. */
const WARNINGS: Record<string, string> = {
  straightRow: 'it is a straight row of keys',
  keyPattern: 'it is a short keyboard pattern',
  simpleRepeat: 'it repeats a character (like "aaa")',
  extendedRepeat: 'it repeats a pattern (like "abcabcabc")',
  sequences: 'it is a common character sequence (like "abc" or "6543")',
  recentYears: 'it is built on a recent year',
  dates: 'it is built on a date',
  topTen: 'it is one of the ten most used passwords',
  topHundred: 'it is one of the hundred most used passwords',
  common: 'it is a commonly used password',
  similarToCommon: 'it is close to a commonly used password',
  wordByItself: 'it is a single word',
  namesByThemselves: 'it is a name',
  commonNames: 'it is a common name',
  userInputs: 'it contains your email address or name',
  pwned: 'it has appeared in a data breach',
};

export type PasswordVerdict = { ok: true } | { ok: false; reason: string };

/**
 * Checks a password against the policy. `context` is the account's own details (email, name),
 * which a password must not be built from.
 */
export function checkPassword(password: string, context: readonly string[] = []): PasswordVerdict {
  if (password.length < PASSWORD_MIN_LENGTH)
    return { ok: false, reason: `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.` };
  if (password.length > PASSWORD_MAX_LENGTH)
    return { ok: false, reason: `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.` };
  const inputs = context.flatMap((value) => {
    const v = value.trim().toLowerCase();
    // The local part of an email and the words of a name are what people reuse.
    return [v, ...v.split(/[@\s._+-]+/).filter((part) => part.length >= 3)];
  });
  const result: ZxcvbnResult = zxcvbn().check(password.slice(0, ESTIMATED_PREFIX), inputs);
  if (result.score >= MIN_SCORE) return { ok: true };
  const warning = result.feedback.warning ? WARNINGS[result.feedback.warning] : undefined;
  return {
    ok: false,
    reason:
      `The password is too easy to guess${warning ? `: ${warning}` : ''} ` +
      `(strength ${result.score} of 4; at least ${MIN_SCORE} is required). ` +
      'Use a longer phrase of several unrelated words.',
  };
}
