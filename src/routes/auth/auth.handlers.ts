import type { AppRouteHandler } from '../../http/types';
import { clock } from '../../lib/clock';
import { ProblemError } from '../../lib/problem';
import { clearSessionCookie, setSessionCookie } from '../../middleware/session-cookie';
import { countSignup, loginAttempts } from '../../services/account-throttles';
import {
  authenticate,
  bootstrapAdmin,
  profileWithOrganisation,
  registerAccount,
  toProfile,
} from '../../services/accounts';
import { afterCommit } from '../../services/after-commit';
import { confirmationStatements } from '../../services/email-confirmations';
import { endSession, startSession } from '../../services/sessions';
import type * as routes from './auth.routes';

export const signup: AppRouteHandler<typeof routes.signup> = async (c) => {
  const { db } = c.var;
  await countSignup(c.env, c.req.header('CF-Connecting-IP'));
  const now = clock.now();
  let jobId: string | null = null;
  const { user, organisation } = await registerAccount(
    db,
    c.req.valid('json'),
    [c.env.ADMIN_EMAIL],
    now,
    async ({ userId, email, invitationId }) => {
      // The confirmation link, in the signup's own batch (the mail goes out through the outbox).
      const link = await confirmationStatements(
        db,
        c.env,
        { userId, email, purpose: 'signup', invitationId },
        now,
      );
      jobId = link.jobId;
      return link.statements;
    },
  );
  if (jobId) await afterCommit(c.var.db, c.env, { jobs: [jobId] }, { now });
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
