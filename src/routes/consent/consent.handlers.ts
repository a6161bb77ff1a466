import { getDb } from '../../db/client';
import { CURRENT_NOTICE_VERSION, noticeFor } from '../../domain/consent-notices';
import { ProblemError } from '../../lib/problem';
import type { AppRouteHandler } from '../../lib/types';
import * as consent from '../../services/consent';
import type * as routes from './consent.routes';

const toReceiptView = (r: consent.ConsentReceipt) => ({ ...r, createdAt: r.createdAt.toISOString() });
const toStateView = (s: consent.PurposeState) => ({ ...s, since: s.since?.toISOString() ?? null });

export const record: AppRouteHandler<typeof routes.recordConsent> = async (c) => {
  const receipt = await consent.recordConsent(c.env, c.get('user')!.id, c.req.valid('json'));
  return c.json(toReceiptView(receipt), 201);
};

export const list: AppRouteHandler<typeof routes.listConsents> = async (c) => {
  const db = getDb(c.env.DB);
  const userId = c.get('user')!.id;
  const [states, history] = await Promise.all([
    consent.consentStates(db, userId),
    consent.consentHistory(db, userId),
  ]);
  return c.json(
    {
      currentNoticeVersion: CURRENT_NOTICE_VERSION,
      states: {
        ai_evaluation: toStateView(states.ai_evaluation),
        leaderboard: toStateView(states.leaderboard),
        public_verification: toStateView(states.public_verification),
      },
      history: history.map(toReceiptView),
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
