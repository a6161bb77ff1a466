import { getDb } from '../../db/client';
import { CURRENT_NOTICE_VERSION, noticeFor } from '../../domain/consent-notices';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import * as consent from '../../services/consent';
import type * as routes from './consent.routes';

const toReceiptView = (r: consent.ConsentReceipt) => ({
  id: r.id,
  purpose: r.purpose,
  action: r.action,
  noticeVersion: r.noticeVersion,
  createdAt: r.createdAt.toISOString(),
});
const toStateView = (s: consent.PurposeState) => ({ ...s, since: s.since?.toISOString() ?? null });

export const record: AppRouteHandler<typeof routes.recordConsent> = async (c) => {
  const receipt = await consent.recordConsent(c.env, c.get('user')!.id, c.req.valid('json'));
  return c.json(toReceiptView(receipt), 201);
};

export const list: AppRouteHandler<typeof routes.listConsents> = async (c) => {
  const db = getDb(c.env.DB);
  const userId = c.get('user')!.id;
  const { limit, cursor } = c.req.valid('query');
  const [states, rows] = await Promise.all([
    consent.consentStates(db, userId),
    consent.consentHistoryPage(db, userId, limit, decodeCursor(cursor)),
  ]);
  const history = toPage(rows, limit, consent.historyPosition);
  return c.json(
    {
      currentNoticeVersion: CURRENT_NOTICE_VERSION,
      states: {
        ai_evaluation: toStateView(states.ai_evaluation),
        leaderboard: toStateView(states.leaderboard),
        public_verification: toStateView(states.public_verification),
      },
      history: history.items.map(toReceiptView),
      nextCursor: history.nextCursor,
    },
    200,
  );
};

export const notice: AppRouteHandler<typeof routes.getNotice> = (c) => {
  const found = noticeFor(c.req.valid('param').version);
  if (!found) throw new ProblemError('not-found', 'No consent notice with this version.');
  return c.json({ ...found, current: found.version === CURRENT_NOTICE_VERSION }, 200, {
    'Cache-Control': 'public, max-age=86400',
  });
};
