import type { AppRouteHandler } from '../../http/types';
import { decodeCursor, toPage } from '../../lib/paging';
import { ProblemError } from '../../lib/problem';
import { profileOf, profileWithOrganisation, setPublicAlias } from '../../services/accounts';
import * as certs from '../../services/certificates';
import { hasConsent } from '../../services/consent';
import { identifierIncluded } from '../../services/credentials';
import { digilockerHolderView } from '../../services/digilocker/holder';
import * as requests from '../../services/dsr/requests';
import { setHolderIdentifier } from '../../services/issuance/resign';
import * as domainProof from '../../services/organisations/domain-proof';
import * as membership from '../../services/organisations/membership';
import { organisationOf, organisationView } from '../../services/organisations/organisation';
import { renderCertificatePdf } from '../../services/renderers';

import { noticesPage, noticeView } from '../../services/retention';
import * as briefs from '../../services/workflow/briefs';
import { consentOverview, self } from '../data-subject';
import type * as routes from './me.routes';

const accountGone = () => new ProblemError('unauthenticated', 'The account no longer exists.');

export const get: AppRouteHandler<typeof routes.getMe> = async (c) => {
  const row = await profileOf(c.var.db, c.var.user.id);
  if (!row) throw accountGone();
  return c.json(await profileWithOrganisation(c.var.db, row), 200);
};

export const update: AppRouteHandler<typeof routes.updateMe> = async (c) => {
  const row = await setPublicAlias(c.var.db, c.env, c.var.user.id, c.req.valid('json').publicAlias);
  if (!row) throw accountGone();
  return c.json(await profileWithOrganisation(c.var.db, row), 200);
};

export const listBriefs: AppRouteHandler<typeof routes.myBriefs> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await briefs.listBriefs(
    c.var.db,
    { states: ['draft', 'published', 'closed'], organisationId: c.var.user.organisationId ?? '-' },
    limit,
    decodeCursor(cursor),
  );
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(briefs.briefSummaryView), nextCursor: page.nextCursor }, 200);
};

export const getBrief: AppRouteHandler<typeof routes.getMyBrief> = async (c) => {
  const brief = await briefs.loadBrief(c.var.db, c.req.valid('param').id);
  if (!brief || brief.organisationId === null || brief.organisationId !== c.var.user.organisationId)
    throw new ProblemError('not-found', 'No brief with this id.');
  return c.json(briefs.briefToJson(brief), 200);
};

export const listCertificates: AppRouteHandler<typeof routes.myCertificates> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await certs.certificatesOf(c.var.db, c.var.user.id, limit, decodeCursor(cursor));
  const page = toPage(rows, limit, certs.certificatePosition);
  const consented = await hasConsent(c.var.db, c.var.user.id, 'public_verification');
  return c.json(
    {
      items: page.items.map((r) => ({
        ...certs.certificateView(c.env, r),
        digilocker: digilockerHolderView(r, c.env, consented),
      })),
      nextCursor: page.nextCursor,
      learnerRecord: `${c.env.PUBLIC_BASE_URL.replace(/\/+$/, '')}/api/me/learner-record`,
    },
    200,
  );
};

export const certificatePdf: AppRouteHandler<typeof routes.getMyCertificatePdf> = async (c) => {
  const number = certs.requireCertificateNumber(c.req.valid('param').certificateNo);
  const document = await certs.holderCertificateDocument(c.var.db, c.env, number, c.var.user.id);
  if (!document) throw new ProblemError('not-found', 'You hold no certificate with this number.');
  const pdf = await renderCertificatePdf(document, certs.certificatePdfDate(document));
  return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="certificate-${document.certificateNo}.pdf"`,
  });
};

export const listConsents: AppRouteHandler<typeof routes.listConsents> = async (c) =>
  c.json(await consentOverview(c.var.db, self(c.var.user), c.req.valid('query')), 200);

export const listDsrRequests: AppRouteHandler<typeof routes.listMyRequests> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const rows = await requests.listUserRequests(c.var.db, c.var.user.id, limit, decodeCursor(cursor));
  const page = toPage(rows, limit);
  return c.json({ items: page.items.map(requests.toRequestView), nextCursor: page.nextCursor }, 200);
};

export const getOrganisation: AppRouteHandler<typeof routes.getMyOrganisation> = async (c) =>
  c.json(organisationView(await organisationOf(c.var.db, c.var.user.id)), 200);

export const updateOrganisation: AppRouteHandler<typeof routes.updateMyOrganisation> = async (c) => {
  const organisation = await membership.updateOrganisation(c.var.db, c.var.user, c.req.valid('json'), {
    env: c.env,
    defer: (effects) => c.executionCtx.waitUntil(effects),
  });
  return c.json(organisationView(organisation), 200);
};

export const invite: AppRouteHandler<typeof routes.inviteToOrganisation> = async (c) => {
  const invitation = await membership.inviteMember(c.var.db, c.var.user, c.req.valid('json').email);
  return c.json({ ...invitation, expiresAt: invitation.expiresAt.toISOString() }, 201);
};

export const startDomainVerification: AppRouteHandler<typeof routes.startDomainVerification> = async (c) => {
  const { organisation, challenge } = await domainProof.startDomainVerification(
    c.var.db,
    c.var.user,
    c.req.valid('json').domain,
    { env: c.env, defer: (effects) => c.executionCtx.waitUntil(effects) },
  );
  return c.json({ organisation: organisationView(organisation), challenge }, 201);
};

export const checkDomainVerification: AppRouteHandler<typeof routes.checkDomainVerification> = async (c) => {
  const { organisation, check, newlyVerified, issuedCertificates } = await domainProof.checkDomainAndIssue(
    c.var.db,
    { env: c.env, defer: (effects) => c.executionCtx.waitUntil(effects) },
    c.var.user,
    c.req.valid('json').domain,
  );
  return c.json(
    { organisation: organisationView(organisation), check, newlyVerified, issuedCertificates },
    200,
  );
};

export const listNotices: AppRouteHandler<typeof routes.listMyNotices> = async (c) => {
  const { limit, cursor } = c.req.valid('query');
  const page = toPage(await noticesPage(c.var.db, c.var.user.id, limit, decodeCursor(cursor)), limit);
  return c.json({ notices: page.items.map(noticeView), nextCursor: page.nextCursor }, 200);
};

/**
 * The identifier's setting and whether the credentials carry it (only while the address is confirmed
 * and `public_verification` stands).
 */
async function identifierState(db: Parameters<typeof identifierIncluded>[0], userId: string) {
  const { enabled, included, leftOut } = await identifierIncluded(db, userId);
  return {
    enabled,
    included,
    note:
      leftOut === 'unconfirmed'
        ? 'Left out of your credentials until your email address is confirmed: the identifier is a hash of that ' +
          'address, so it would tie your credentials to whoever owns it. Open the link mailed to you ' +
          '(POST /api/me/email-confirmation sends a new one); your credentials are then signed with it.'
        : leftOut === 'consent'
          ? 'Left out of your credentials while your public_verification consent is not granted: public ' +
            'verification serves the credential, and the identifier would tell anyone who knows your email that ' +
            'it is yours. Grant public_verification (POST /api/consent) to have your credentials signed with it (for ' +
            'someone under 18 it does not count, so the identifier is never included).'
          : null,
  };
}

export const getCredentialIdentifier: AppRouteHandler<typeof routes.getCredentialIdentifier> = async (c) =>
  c.json(await identifierState(c.var.db, c.var.user.id), 200);

export const setCredentialIdentifier: AppRouteHandler<typeof routes.setCredentialIdentifier> = async (c) => {
  const { enabled } = c.req.valid('json');
  const resigned = await setHolderIdentifier(c.var.db, c.env, c.var.user.id, enabled);
  return c.json({ ...(await identifierState(c.var.db, c.var.user.id)), resigned }, 200);
};
