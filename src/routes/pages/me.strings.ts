/**
 * The fixed messages of the holder's home (`/me`): the banner after a form (chosen by a key in
 * the redirect's query, so no text from the request is ever shown) and the names of the consent
 * purposes. English; the other languages follow the pages' string catalogues.
 */

/** `?notice=` after a form that did what it said. */
export const NOTICES = {
  'signed-in': 'You are signed in.',
  'signed-out': 'You are signed out.',
  'consent-granted': 'Consent granted. It takes effect at once.',
  'consent-withdrawn': 'Consent withdrawn. It takes effect at once.',
  'alias-saved': 'Your leaderboard alias is saved.',
  'alias-cleared': 'Your leaderboard alias is cleared: the leaderboard shows your name.',
  'application-revoked': 'Access revoked: the application’s tokens no longer work.',
  'confirmation-sent': 'A new confirmation link is on its way to your email address.',
} as const;

/** `?error=` after a form that could not do it. */
export const ERRORS = {
  'sign-in-failed': 'Sign-in failed: check your email address and password.',
  'sign-in-required': 'Sign in to see your certificates and settings.',
  'too-many': 'Too many attempts. Wait a few minutes, then try again.',
  'alias-invalid':
    'That alias cannot be used: use letters, digits, spaces and ordinary punctuation (no control or invisible characters).',
  'application-unknown': 'That application has no access to your account (it may have been revoked already).',
  'already-confirmed': 'Your email address is confirmed already.',
  'guardian-required': 'A parent or lawful guardian gives this consent for an account of someone under 18.',
  failed: 'That did not work. Try again; if it keeps failing, contact us.',
} as const;

export type NoticeKey = keyof typeof NOTICES;
export type ErrorKey = keyof typeof ERRORS;

export const noticeOf = (key: string | undefined): string | null =>
  key !== undefined && Object.hasOwn(NOTICES, key) ? NOTICES[key as NoticeKey] : null;

export const errorOf = (key: string | undefined): string | null =>
  key !== undefined && Object.hasOwn(ERRORS, key) ? ERRORS[key as ErrorKey] : null;

/** The consent purposes a holder manages on the page, in the order shown. */
export const HOME_PURPOSES = ['public_verification', 'leaderboard', 'ai_evaluation'] as const;
export type HomePurpose = (typeof HOME_PURPOSES)[number];
