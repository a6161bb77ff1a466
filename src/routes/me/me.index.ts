import { eq } from 'drizzle-orm';
import { getDb } from '../../db/client';
import { users } from '../../db/schema';
import { createRouter } from '../../lib/create-app';
import { ProblemError } from '../../lib/problem';
import { toProfile } from '../../services/accounts';
import { recordAudit } from '../../services/audit';
import { purgeLeaderboards } from '../../services/cache-keys';
import * as routes from './me.routes';

export const meRouter = createRouter()
  .openapi(routes.getMe, async (c) => {
    const [row] = await getDb(c.env.DB)
      .select()
      .from(users)
      .where(eq(users.id, c.get('user')!.id))
      .limit(1);
    if (!row) throw new ProblemError('unauthenticated', 'The account no longer exists.');
    return c.json(toProfile(row), 200);
  })
  .openapi(routes.updateMe, async (c) => {
    const db = getDb(c.env.DB);
    const userId = c.get('user')!.id;
    const [row] = await db
      .update(users)
      .set({ publicAlias: c.req.valid('json').publicAlias, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    if (!row) throw new ProblemError('unauthenticated', 'The account no longer exists.');
    await Promise.all([
      recordAudit(db, {
        actorId: userId,
        action: 'profile.alias_changed',
        targetType: 'user',
        targetId: userId,
      }),
      purgeLeaderboards(c.env.CACHE),
    ]);
    return c.json(toProfile(row), 200);
  });
