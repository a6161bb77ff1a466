import type { AppRouteHandler } from '../../http/types';
import { clock } from '../../lib/clock';
import { startAccessExport } from '../../services/dsr/access-export';
import { requestErasure } from '../../services/dsr/erasure';
import * as guardians from '../../services/guardians';
import { assertRecentSignIn } from '../../services/recent-sign-in';
import {
  consentOverview,
  correctSubject,
  fileGrievance,
  recordSubjectConsent,
  ward,
  zipHeaders,
} from '../data-subject';
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

export const wardConsents: AppRouteHandler<typeof routes.wardConsents> = async (c) =>
  c.json(
    await consentOverview(
      c.var.db,
      await ward(c.var.db, c.var.user, c.req.valid('param').id),
      c.req.valid('query'),
    ),
    200,
  );

export const recordWardConsent: AppRouteHandler<typeof routes.recordWardConsent> = async (c) => {
  const subject = await ward(c.var.db, c.var.user, c.req.valid('param').id);
  return c.json(await recordSubjectConsent(c.var.db, c.env, subject, c.req.valid('json')), 201);
};

export const wardAccess: AppRouteHandler<typeof routes.wardAccess> = async (c) => {
  const subject = await ward(c.var.db, c.var.user, c.req.valid('param').id);
  const { filename, body } = await startAccessExport(
    c.var.db,
    c.env,
    subject.person,
    new Date(),
    subject.actor.id,
  );
  return c.body(body, 200, zipHeaders(filename));
};

export const wardCorrection: AppRouteHandler<typeof routes.wardCorrection> = async (c) => {
  const subject = await ward(c.var.db, c.var.user, c.req.valid('param').id);
  return c.json(await correctSubject(c.var.db, c.env, subject, c.req.valid('json')), 200);
};

export const wardErasure: AppRouteHandler<typeof routes.wardErasure> = async (c) => {
  const subject = await ward(c.var.db, c.var.user, c.req.valid('param').id);
  assertRecentSignIn(c.var.user, "Erasing the child's account", c.get('rateLimitHeaders'));
  const receipt = await requestErasure(c.var.db, c.env, subject.person.id, new Date(), subject.actor.id);
  return c.json(receipt, 202, { Location: `/api/dsr/erasure/${receipt.requestId}` });
};

export const wardGrievance: AppRouteHandler<typeof routes.wardGrievance> = async (c) => {
  const subject = await ward(c.var.db, c.var.user, c.req.valid('param').id);
  return c.json(await fileGrievance(c.var.db, subject, c.req.valid('json')), 201);
};
