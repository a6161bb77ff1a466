import { eq } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { users } from '../../db/schema';
import { createRouter } from '../../lib/create-app';
import { ProblemError } from '../../lib/problem';
import { toProfile } from '../../services/accounts';
import * as routes from './me.routes';

export const meRouter = createRouter().openapi(routes.getMe, async (c) => {
  const [row] = await getDb(c.env.DB)
    .select()
    .from(users)
    .where(eq(users.id, c.get('user')!.id))
    .limit(1);
  if (!row) throw new ProblemError('unauthenticated', 'The account no longer exists.');
  return c.json(toProfile(row), 200);
});
