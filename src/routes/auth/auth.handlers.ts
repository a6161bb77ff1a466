import type { AppRouteHandler } from '../../http/types';
import { clock } from '../../lib/clock';
import { ProblemError } from '../../lib/problem';
import { clearSessionCookie, setSessionCookie } from '../../middleware/session-cookie';
import { countSignup, loginAttempts } from '../../services/account-throttles';
import {
  authenticate,
  bootstrapAdmin,
  profileWithOrganisation,
  signUp,
  toProfile,
} from '../../services/accounts';
import { endSession, startSession } from '../../services/sessions';
import type * as routes from './auth.routes';

export const signup: AppRouteHandler<typeof routes.signup> = async (c) => {
  const { db } = c.var;
  await countSignup(c.env, c.req.header('CF-Connecting-IP'));
  const { user, organisation } = await signUp(db, c.env, c.req.valid('json'), clock.now());
  const session = await startSession(db, user.id);
  setSessionCookie(c, session.token, session.expiresAt);
  return c.json({ user: toProfile(user, organisation), expiresAt: session.expiresAt.toISOString() }, 201);
};

export const login: AppRouteHandler<typeof routes.login> = async (c) => {
  const { email, password } = c.req.valid('json');
  const db = c.var.db;
  const ip = c.req.header('CF-Connecting-IP');
  const attempts = await loginAttempts(c.env, email, ip);
  await attempts.begin();
  const user =
    (await bootstrapAdmin(db, c.env, email, password, ip ?? null)) ??
    (await authenticate(db, email, password));
  if (!user) throw new ProblemError('unauthenticated', 'Email or password is incorrect.');
  await attempts.succeeded();
  const session = await startSession(db, user.id);
  setSessionCookie(c, session.token, session.expiresAt);
  return c.json(
    { user: await profileWithOrganisation(db, user), expiresAt: session.expiresAt.toISOString() },
    200,
  );
};

export const logout: AppRouteHandler<typeof routes.logout> = async (c) => {
  const user = c.get('user');
  if (user) await endSession(c.var.db, user.sessionId);
  c.set('sessionEnded', true);
  clearSessionCookie(c);
  return c.body(null, 204);
};
