import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { parseCertificateNumber } from '../../domain/certificates/certificate-number';
import { CURRENT_NOTICE_VERSION, noticeFor, noticeText } from '../../domain/consent-notices';
import type { AppRouteHandler } from '../../http/types';
import { clock } from '../../lib/clock';
import type { SessionUser } from '../../lib/principals';
import { ProblemError } from '../../lib/problem';
import type { AppBindings } from '../../middleware/context';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from '../../middleware/session-cookie';
import { loginAttempts } from '../../services/account-throttles';
import { authenticate, bootstrapAdmin, profileOf, setPublicAlias } from '../../services/accounts';
import * as certs from '../../services/certificates';
import { consentStates } from '../../services/consent';
import { digilockerConfig } from '../../services/digilocker/config';
import { digilockerHolderView, setDigilockerEnabled } from '../../services/digilocker/holder';
import { confirmationStatus, resendConfirmation as resendLink } from '../../services/email-confirmations';
import { needsGuardianConsent } from '../../services/guardians';
import { createOffer, offerUris } from '../../services/oid4vci';
import { grantsOf, revokeGrantOf } from '../../services/portability/grants';
import { endSession, resolveSession, startSession } from '../../services/sessions';
import { recordSubjectConsent, self } from '../data-subject';
import { chooseLanguage, isLang, type Lang } from './i18n';
import { pageHeaders } from './layout';
import type * as routes from './me.routes';
import { type ErrorKey, HOME_PURPOSES, isErrorKey, isNoticeKey, type NoticeKey } from './me.strings';
import { type Banner, type HomeCertificate, homePage, signInPage, walletOfferPage } from './me.templates';

/** How many certificates the page lists (newest first); the JSON API pages through all of them. */
export const HOME_CERTIFICATES = 100;

/** The layout's headers, never stored (the page is personal), varying on the cookie too. */
const homeHeaders = (lang: Lang): Record<string, string> => ({
  ...pageHeaders(lang),
  'Cache-Control': 'no-store',
  Vary: 'Accept-Language, Cookie',
});

/** The live session's user (and the renewed expiry, when the session was renewed), or null. */
async function session(c: Context<AppBindings>) {
  const token = getCookie(c, SESSION_COOKIE);
  const resolved = token ? await resolveSession(c.var.db, token) : null;
  return resolved && token ? { ...resolved, token } : null;
}

/** The language of the page a form was sent from (its action carries `?lang=`), kept on the way back. */
function formLang(c: Context<AppBindings>): Lang | null {
  const asked = new URL(c.req.url).searchParams.get('lang');
  return isLang(asked) ? asked : null;
}

/** `/me` in the form's language, with a banner key and a section. */
function homeLocation(c: Context<AppBindings>, query: string, section?: string): string {
  const lang = formLang(c);
  return `/me?${lang ? `lang=${lang}&` : ''}${query}${section ? `#${section}` : ''}`;
}

/** Back to the home with a banner (303: the browser follows with a GET), in the form's language. */
function back(
  c: Context<AppBindings>,
  result: { notice: NoticeKey } | { error: ErrorKey },
  section?: string,
): Response {
  const query = 'notice' in result ? `notice=${result.notice}` : `error=${result.error}`;
  return new Response(null, {
    status: 303,
    headers: { Location: homeLocation(c, query, section), 'Cache-Control': 'no-store' },
  });
}

/** What a refused change becomes on the page (the problem types the services throw). */
function errorKeyOf(error: ProblemError): ErrorKey {
  if (error.status === 429) return 'too-many';
  return error.type === 'guardian-consent-required' ? 'guardian-required' : 'failed';
}

/**
 * A change made by the signed-in holder: counted against their per-user limit like the JSON API,
 * then `work`, whose refusals come back as an error banner instead of problem+json. Signed out,
 * back to the sign-in page.
 */
async function change(
  c: Context<AppBindings>,
  section: string,
  work: (user: SessionUser) => Promise<Response>,
  refusal: (error: ProblemError) => ErrorKey = errorKeyOf,
): Promise<Response> {
  const live = await session(c);
  if (!live) return back(c, { error: 'sign-in-required' });
  const { user } = live;
  let response: Response = back(c, { error: 'failed' }, section);
  try {
    await enforceRateLimit(c, 'user', user.id, async () => {
      if (await needsGuardianConsent(c.var.db, user, clock.now()))
        throw new ProblemError('guardian-consent-required', 'Waiting for the guardian.');
      response = await work(user);
    });
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return back(c, { error: refusal(error) }, section);
  }
  return response;
}

export const home: AppRouteHandler<typeof routes.homePage> = async (c) => {
  const query = c.req.valid('query');
  const banner: Banner | null = isErrorKey(query.error)
    ? { kind: 'error', key: query.error }
    : isNoticeKey(query.notice)
      ? { kind: 'notice', key: query.notice }
      : null;
  const lang = chooseLanguage(c.req.raw);
  const headers = homeHeaders(lang);
  const live = await session(c);
  if (!live) return c.body(signInPage(lang, banner), 200, headers);
  const { user, renewedUntil, token } = live;
  if (renewedUntil) setSessionCookie(c, token, renewedUntil);
  const db = c.var.db;
  const now = clock.now();
  if (await needsGuardianConsent(db, user, now))
    return c.body(
      homePage(lang, {
        name: user.name,
        email: user.email,
        emailConfirmed: false,
        pendingEmail: null,
        publicAlias: null,
        awaitingGuardian: true,
        certificates: [],
        learnerRecord: false,
        grants: [],
        consents: [],
        noticeVersion: CURRENT_NOTICE_VERSION,
        digilockerConfigured: false,
        banner,
      }),
      200,
      headers,
    );
  const [profile, email, rows, grants, states] = await Promise.all([
    profileOf(db, user.id),
    confirmationStatus(db, user.id, now),
    certs.certificatesOf(db, user.id, HOME_CERTIFICATES),
    grantsOf(c.env, user.id),
    consentStates(db, user.id),
  ]);
  const current = noticeFor(CURRENT_NOTICE_VERSION);
  const notice = current ? noticeText(current, lang).text : undefined;
  const verificationConsented = states.public_verification.state === 'granted';
  const certificates: HomeCertificate[] = rows.slice(0, HOME_CERTIFICATES).map((r) => {
    const view = certs.certificateView(c.env, r);
    return {
      certificateNo: r.certificateNo,
      title: r.briefTitle,
      organisation: r.signedOrganisationName ?? r.organisationName ?? null,
      issuedAt: r.issuedAt,
      validUntil: r.validUntil,
      publicStatus: view.publicStatus,
      downloadable: r.credentialJwt !== null && r.status !== 'revoked',
      offerable: r.credentialJwt !== null && r.status === 'active',
      digilocker: digilockerHolderView(r, c.env, verificationConsented, now),
    };
  });
  return c.body(
    homePage(lang, {
      name: profile?.name ?? user.name,
      email: email.email,
      emailConfirmed: email.confirmed,
      pendingEmail: email.pendingEmail,
      publicAlias: profile?.publicAlias ?? null,
      awaitingGuardian: false,
      certificates,
      learnerRecord: certificates.some((x) => x.publicStatus === 'active' && x.downloadable),
      grants,
      consents: HOME_PURPOSES.map((purpose) => ({
        purpose,
        state: states[purpose].state,
        since: states[purpose].since,
        notice: notice?.purposes.find((p) => p.purpose === purpose),
      })),
      noticeVersion: CURRENT_NOTICE_VERSION,
      digilockerConfigured: digilockerConfig(c.env) !== null,
      banner,
    }),
    200,
    headers,
  );
};

export const signIn: AppRouteHandler<typeof routes.signIn> = async (c) => {
  const { email, password } = c.req.valid('form');
  const db = c.var.db;
  const ip = c.req.header('CF-Connecting-IP');
  try {
    const attempts = await loginAttempts(c.env, email, ip);
    await attempts.begin();
    const user =
      (await bootstrapAdmin(db, c.env, email, password, ip ?? null)) ??
      (await authenticate(db, email, password));
    if (!user) return back(c, { error: 'sign-in-failed' }) as never;
    await attempts.succeeded();
    const started = await startSession(db, user.id);
    setSessionCookie(c, started.token, started.expiresAt);
  } catch (error) {
    if (error instanceof ProblemError)
      return back(c, { error: error.status === 429 ? 'too-many' : 'sign-in-failed' }) as never;
    throw error;
  }
  return c.body(null, 303, { Location: homeLocation(c, 'notice=signed-in'), 'Cache-Control': 'no-store' });
};

export const signOut: AppRouteHandler<typeof routes.signOut> = async (c) => {
  const live = await session(c);
  if (live) await endSession(c.var.db, live.user.sessionId);
  c.set('sessionEnded', true);
  clearSessionCookie(c);
  return c.body(null, 303, { Location: homeLocation(c, 'notice=signed-out'), 'Cache-Control': 'no-store' });
};

export const consent: AppRouteHandler<typeof routes.consent> = async (c) => {
  const { purpose, action, return: returnTo } = c.req.valid('form');
  const section = purpose === 'public_verification' ? 'public-name' : 'consents';
  // The receipt names the notice in the language the page showed it in.
  const notice = noticeFor(CURRENT_NOTICE_VERSION);
  const language = notice ? noticeText(notice, chooseLanguage(c.req.raw)).language : 'en';
  return (await change(c, section, async (user) => {
    await recordSubjectConsent(c.var.db, c.env, self(user), {
      purpose,
      action,
      noticeVersion: CURRENT_NOTICE_VERSION,
      language,
    });
    // From a certificate page's "show my name" form: back to that page, which now shows it.
    if (returnTo && purpose === 'public_verification') {
      const asked = formLang(c);
      return new Response(null, {
        status: 303,
        headers: {
          Location: `${returnTo}${asked ? `?lang=${asked}` : ''}#holder`,
          'Cache-Control': 'no-store',
        },
      });
    }
    return back(c, { notice: action === 'grant' ? 'consent-granted' : 'consent-withdrawn' }, section);
  })) as never;
};

export const publicName: AppRouteHandler<typeof routes.publicName> = async (c) => {
  const requested = c.req.valid('form').publicAlias.trim();
  return (await change(
    c,
    'public-name',
    async (user) => {
      await setPublicAlias(c.var.db, c.env, user.id, requested === '' ? null : requested);
      return back(c, { notice: requested === '' ? 'alias-cleared' : 'alias-saved' }, 'public-name');
    },
    (error) => (error.type === 'validation-failed' ? 'alias-invalid' : errorKeyOf(error)),
  )) as never;
};

export const revokeApplication: AppRouteHandler<typeof routes.revokeApplication> = async (c) => {
  const { grantId } = c.req.valid('param');
  return (await change(c, 'applications', async (user) => {
    const revoked = await revokeGrantOf(c.var.db, c.env, user.id, grantId);
    return back(
      c,
      revoked ? { notice: 'application-revoked' } : { error: 'application-unknown' },
      'applications',
    );
  })) as never;
};

export const resendConfirmation: AppRouteHandler<typeof routes.resendConfirmation> = async (c) =>
  (await change(
    c,
    'email',
    async (user) => {
      await resendLink(c.var.db, c.env, user.id);
      return back(c, { notice: 'confirmation-sent' }, 'email');
    },
    (error) => (error.type === 'conflict' ? 'already-confirmed' : errorKeyOf(error)),
  )) as never;

export const setDigiLocker: AppRouteHandler<typeof routes.setDigiLocker> = async (c) => {
  const parsed = parseCertificateNumber(c.req.valid('param').certificateNo);
  const enabled = c.req.valid('form').enabled === 'on';
  return (await change(c, 'digilocker', async (user) => {
    if (!parsed.ok) return back(c, { error: 'certificate-unknown' }, 'digilocker');
    const cert = await setDigilockerEnabled(c.var.db, user.id, parsed.normalised, enabled);
    if (!cert) return back(c, { error: 'certificate-unknown' }, 'digilocker');
    return back(c, { notice: enabled ? 'digilocker-on' : 'digilocker-off' }, 'digilocker');
  })) as never;
};

export const createWalletOffer: AppRouteHandler<typeof routes.createWalletOffer> = async (c) => {
  const parsed = parseCertificateNumber(c.req.valid('param').certificateNo);
  const lang = chooseLanguage(c.req.raw);
  return (await change(c, 'wallets', async (user) => {
    if (!parsed.ok) return back(c, { error: 'certificate-unknown' }, 'wallets');
    const created = await createOffer(c.var.db, c.env, user.id, parsed.normalised, { txCode: true });
    if (!created.ok)
      return back(
        c,
        { error: created.error === 'not-found' ? 'certificate-unknown' : 'offer-unavailable' },
        'wallets',
      );
    const cert = await certs.holderCertificate(c.var.db, parsed.normalised);
    const { credentialOfferUri } = offerUris(c.env.PUBLIC_BASE_URL, created.offerId);
    return new Response(
      walletOfferPage(lang, {
        certificateNo: parsed.normalised,
        title: cert?.briefTitle ?? parsed.normalised,
        credentialOfferUri,
        txCode: created.txCode,
        expiresAt: created.expiresAt,
      }),
      { status: 200, headers: homeHeaders(lang) },
    );
  })) as never;
};
