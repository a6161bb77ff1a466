/** What cannot be undone asks for a recent sign-in: checked by the route's auth, and by services whose one operation is only sometimes irreversible. */
import { clock } from '../lib/clock';
import { ProblemError } from '../lib/problem';

/** How recent a sign-in must be for what cannot be undone (`recentSignIn` routes). */
export const RECENT_SIGN_IN_MS = 15 * 60 * 1000;

/** 403 `recent-sign-in-required` unless the session signed in within `RECENT_SIGN_IN_MS`. */
export function assertRecentSignIn(
  user: { signedInAt: Date },
  what: string,
  headers: Record<string, string> = {},
) {
  if (clock.now().getTime() - user.signedInAt.getTime() <= RECENT_SIGN_IN_MS) return;
  throw new ProblemError(
    'recent-sign-in-required',
    `${what} cannot be undone, so it needs a sign-in within the last 15 minutes; this session signed in at ${user.signedInAt.toISOString()}. Sign in again (POST /api/auth/login) and repeat the request.`,
    { headers },
  );
}
