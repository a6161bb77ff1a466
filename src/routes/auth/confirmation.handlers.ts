import type { Context } from 'hono';
import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import type { AppBindings } from '../../middleware/context';
import { assertSameSiteRequest } from '../../middleware/csrf';
import {
  confirmationStatus,
  confirmEmail,
  peekConfirmation,
  resendConfirmation,
} from '../../services/email-confirmations';
import {
  confirmationCsp,
  confirmationErrorPage,
  confirmedPage,
  confirmPage,
} from '../pages/confirmation.templates';
import { chooseLanguage, type Lang, t } from '../pages/i18n';
import { pageViewer } from '../pages/pages.viewer';
import type * as routes from './confirmation.routes';

async function htmlPage(body: string, status: number, lang: Lang) {
  return new Response(body, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Language': lang,
      Vary: 'Accept-Language',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': await confirmationCsp(),
      'Referrer-Policy': 'no-referrer',
    },
  });
}

const UNUSABLE =
  'This link is unknown, was used already or has expired (links work once, for 24 hours). Sign in and ask for a new one.';

/** `GET` of the mailed link: a page; nothing is confirmed until its button is pressed. */
export const open: AppRouteHandler<typeof routes.openConfirmationLink> = async (c) => {
  const { token } = c.req.valid('query');
  const lang = chooseLanguage(c.req.raw);
  const s = t(lang).confirmation;
  const link = await peekConfirmation(c.var.db, token);
  if (!link && !/text\/html/i.test(c.req.header('accept') ?? ''))
    throw new ProblemError('not-found', UNUSABLE);
  const { signedIn } = await pageViewer(c);
  if (!link)
    return (await htmlPage(
      confirmationErrorPage(s.unusableTitle, s.unusableBody, lang, signedIn),
      404,
      lang,
    )) as never;
  return (await htmlPage(confirmPage(token, link.email, link.purpose, lang, signedIn), 200, lang)) as never;
};

/** The validated body's token; a request with no body at all has none (422, as for a schema miss). */
function tokenOf(body: { token?: string } | undefined): string {
  if (body?.token) return body.token;
  throw new ProblemError('validation-failed', 'The request body does not match the schema.', {
    errors: [{ pointer: '#/token', detail: 'Required' }],
  });
}

const isForm = (c: Context<AppBindings>) =>
  /^application\/x-www-form-urlencoded/i.test(c.req.header('content-type') ?? '');

/** `POST`: JSON clients get JSON; the page's form (same origin only) gets a page. */
export const confirm: AppRouteHandler<typeof routes.confirmEmail> = async (c) => {
  if (!isForm(c)) return c.json(await confirmEmail(c.var.db, c.env, tokenOf(c.req.valid('json'))), 200);
  const lang = chooseLanguage(c.req.raw);
  const s = t(lang).confirmation;
  const { signedIn } = await pageViewer(c);
  try {
    // A form can be posted from any site: only this site's own page may confirm.
    assertSameSiteRequest(c);
    const result = await confirmEmail(c.var.db, c.env, tokenOf(c.req.valid('form')));
    return (await htmlPage(confirmedPage(result.email, result.purpose, lang, signedIn), 200, lang)) as never;
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const status = error.status;
    // The service's words for a conflict are the only detail not in the catalogue (English).
    const [title, detail] =
      status === 403
        ? [s.notThisSiteTitle, s.notThisSiteBody]
        : status === 409
          ? [s.conflictTitle, error.message]
          : [s.unusableTitle, s.unusableBody];
    return (await htmlPage(confirmationErrorPage(title, detail, lang, signedIn), status, lang)) as never;
  }
};

export const status: AppRouteHandler<typeof routes.getEmailConfirmation> = async (c) =>
  c.json(await confirmationStatus(c.var.db, c.var.user.id), 200);

export const resend: AppRouteHandler<typeof routes.resendEmailConfirmation> = async (c) => {
  const sent = await resendConfirmation(c.var.db, c.env, c.var.user.id);
  return c.json({ email: sent.email, expiresAt: sent.expiresAt.toISOString() }, 202);
};
