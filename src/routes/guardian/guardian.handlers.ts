import { CURRENT_NOTICE_VERSION } from '../../domain/consent-notices';
import type { AppRouteHandler } from '../../http/types';
import { clock } from '../../lib/clock';
import { decodeCursor, toPage } from '../../lib/paging';
import * as consent from '../../services/consent';
import { startAccessExport } from '../../services/dsr/access-export';
import { correctPersonalData } from '../../services/dsr/correction';
import { requestErasure } from '../../services/dsr/erasure';
import { fileRequest } from '../../services/dsr/requests';
import * as guardians from '../../services/guardians';
import { assertRecentSignIn } from '../../services/recent-sign-in';
import type * as routes from './guardian.routes';

export const getMyGuardian: AppRouteHandler<typeof routes.getMyGuardian> = async (c) =>
  c.json(await guardians.guardianStatus(c.var.db, c.var.user, clock.now()), 200);

export const nameMyGuardian: AppRouteHandler<typeof routes.nameMyGuardian> = async (c) =>
  c.json(
    await guardians.nameGuardian(c.var.db, c.var.user, c.req.valid('json').guardianEmail, clock.now()),
    201,
  );

export const listRequests: AppRouteHandler<typeof routes.listGuardianRequests> = async (c) =>
  c.json({ items: await guardians.pendingRequestsFor(c.var.db, c.var.user, clock.now()) }, 200);

export const approve: AppRouteHandler<typeof routes.approveGuardianRequest> = async (c) =>
  c.json(
    await guardians.decideRequest(
      c.var.db,
      c.var.user,
      c.req.valid('param').id,
      { approve: true, relationship: c.req.valid('json').relationship },
      clock.now(),
    ),
    200,
  );

export const refuse: AppRouteHandler<typeof routes.refuseGuardianRequest> = async (c) =>
  c.json(
    await guardians.decideRequest(
      c.var.db,
      c.var.user,
      c.req.valid('param').id,
      { approve: false },
      clock.now(),
    ),
    200,
  );

export const listWards: AppRouteHandler<typeof routes.listWards> = async (c) =>
  c.json({ items: await guardians.listWards(c.var.db, c.var.user.id, clock.now()) }, 200);

export const withdraw: AppRouteHandler<typeof routes.withdrawGuardianship> = async (c) => {
  await guardians.withdrawGuardianship(c.var.db, c.var.user.id, c.req.valid('param').id, clock.now());
  return c.body(null, 204);
};

/** The ward behind `{id}`, or a 404 for anyone who is not the caller's ward. */
const ward = (c: { var: { db: Parameters<typeof guardians.wardOf>[0]; user: { id: string } } }, id: string) =>
  guardians.wardOf(c.var.db, c.var.user.id, id, clock.now());

export const wardConsents: AppRouteHandler<typeof routes.wardConsents> = async (c) => {
  const child = await ward(c, c.req.valid('param').id);
  const { limit, cursor } = c.req.valid('query');
  const [states, rows] = await Promise.all([
    consent.consentStates(c.var.db, child.id),
    consent.consentHistoryPage(c.var.db, child.id, limit, decodeCursor(cursor)),
  ]);
  const history = toPage(rows, limit, consent.historyPosition);
  return c.json(
    {
      currentNoticeVersion: CURRENT_NOTICE_VERSION,
      states: {
        ai_evaluation: consent.consentStateView(states.ai_evaluation),
        leaderboard: consent.consentStateView(states.leaderboard),
        public_verification: consent.consentStateView(states.public_verification),
        integrity_corpus: consent.consentStateView(states.integrity_corpus),
      },
      history: history.items.map(consent.consentReceiptView),
      nextCursor: history.nextCursor,
    },
    200,
  );
};

export const recordWardConsent: AppRouteHandler<typeof routes.recordWardConsent> = async (c) => {
  const child = await ward(c, c.req.valid('param').id);
  const receipt = await consent.recordConsent(
    c.env,
    child.id,
    c.req.valid('json'),
    c.var.user.id,
    clock.now(),
  );
  return c.json(consent.consentReceiptView(receipt), 201);
};

export const wardAccess: AppRouteHandler<typeof routes.wardAccess> = async (c) => {
  const child = await ward(c, c.req.valid('param').id);
  const { filename, body } = await startAccessExport(
    c.env,
    guardians.wardAsUser(child),
    new Date(),
    c.var.user.id,
  );
  return c.body(body, 200, {
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
  });
};

export const wardCorrection: AppRouteHandler<typeof routes.wardCorrection> = async (c) => {
  const child = await ward(c, c.req.valid('param').id);
  return c.json(
    await correctPersonalData(c.env, child.id, c.req.valid('json'), c.var.user.id, c.var.user),
    200,
  );
};

export const wardErasure: AppRouteHandler<typeof routes.wardErasure> = async (c) => {
  const child = await ward(c, c.req.valid('param').id);
  assertRecentSignIn(c.var.user, "Erasing the child's account", c.get('rateLimitHeaders'));
  const receipt = await requestErasure(c.env, child.id, new Date(), c.var.user.id);
  return c.json(receipt, 202, { Location: `/api/dsr/erasure/${receipt.requestId}` });
};

export const wardGrievance: AppRouteHandler<typeof routes.wardGrievance> = async (c) => {
  const child = await ward(c, c.req.valid('param').id);
  const request = await fileRequest(
    c.var.db,
    { userId: child.id, kind: 'grievance', details: { ...c.req.valid('json'), byGuardian: true } },
    c.var.user.id,
  );
  return c.json(request, 201);
};
