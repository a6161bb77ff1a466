import { z } from '@hono/zod-openapi';
import { CONSENT_PURPOSES } from '../../db/schema';
import { defineRoute } from '../../http/route';
import { errorResponses } from '../../lib/problem';
import { sameSiteForm } from './me.guard';

type Header = { description: string; schema: { type: 'string' } };
const header = (description: string): Header => ({ description, schema: { type: 'string' } });

const htmlContent = (description: string) => ({
  'text/html': { schema: z.string().openapi({ description }) },
});

const PAGE_HEADERS = {
  'Cache-Control': header('`no-store`: the page is personal.'),
  'Content-Security-Policy': header(
    'The page’s own policy: its inline style by hash, no script, forms to this site.',
  ),
};

const FORM = 'application/x-www-form-urlencoded';
const form = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { [FORM]: { schema } },
});

/** Where a form sends the browser back: the home, with a banner key, at the section it changed. */
const BACK = {
  description:
    'Back to `/me` (303 See Other, so the browser GETs it), with `notice=…` or `error=…` naming the banner to show, ' +
    'at the section the form belongs to. Signed out, back to the sign-in page (`/me?error=sign-in-required`).',
  headers: {
    Location: header(
      '`/me?lang=…&notice=…#section` or `/me?lang=…&error=…#section` (`lang` when the form sent it).',
    ),
  },
};

/** 403 of a form not posted from this site's own page (`Origin` not allowed, src/middleware/csrf.ts). */
const REFUSED = {
  403: {
    description:
      'Not posted from this site’s own page: no allowed `Origin` (and no `Sec-Fetch-Site: same-origin`). A page for ' +
      'browsers (`Accept: text/html`), problem+json otherwise.',
    content: { ...htmlContent('The refusal as a page.'), ...errorResponses(403)[403].content },
  },
};

const PAGE_DESCRIPTION_TAIL =
  ' A plain HTML form that works without script; same-origin only (the browser’s `Origin`), like every ' +
  'cookie-authenticated change. It calls the same service as the JSON API.';

const LangQuery = z.object({
  lang: z
    .enum(['en', 'hi'])
    .optional()
    .openapi({
      param: { name: 'lang', in: 'query' },
      description: 'The page’s language (else `Accept-Language`, else English).',
    }),
});

/** The forms post to their action with the page's `?lang=`, and the way back keeps it. */
const FormLangQuery = z.object({
  lang: z
    .enum(['en', 'hi'])
    .optional()
    .openapi({
      param: { name: 'lang', in: 'query' },
      description:
        'The language of the page the form was sent from: the page it goes back to is in it (`/me?lang=…`), and so is a refusal.',
    }),
});

const BannerQuery = LangQuery.extend({
  notice: z
    .string()
    .max(40)
    .optional()
    .openapi({
      param: { name: 'notice', in: 'query' },
      description: 'A banner to show (a fixed key; unknown keys are ignored).',
    }),
  error: z
    .string()
    .max(40)
    .optional()
    .openapi({
      param: { name: 'error', in: 'query' },
      description: 'An error banner to show (a fixed key; unknown keys are ignored).',
    }),
});

export const homePage = defineRoute({
  method: 'get',
  path: '/me',
  operationId: 'getHolderHomePage',
  tags: ['Pages'],
  summary: 'The holder’s home (HTML, for people)',
  description:
    'Signed in (the session cookie): the holder’s certificates (each linking to its page `/verify/{certificateNo}`, ' +
    'with its PDF and baked badges), the download of their learner record, the applications they allowed (OAuth ' +
    'grants) with revoke, their consents with grant and withdraw, what a verifier sees of their name and their ' +
    'leaderboard alias, and whether their email address is confirmed (with a new link when it is not). Signed out: a ' +
    'sign-in form. Reading it changes nothing. Every action is a form posting to `/me/…`, which redirects back here.',
  security: [],
  request: { query: BannerQuery },
  responses: {
    200: {
      description: 'The holder’s home, or the sign-in page when there is no live session.',
      headers: PAGE_HEADERS,
      content: htmlContent('A self-contained HTML document (no script).'),
    },
  },
});

export const SignInForm = z.object({
  email: z.string().max(320).openapi({ description: 'The account’s email address.' }),
  password: z.string().max(1024).openapi({ description: 'Its password.' }),
});

export const signIn = defineRoute({
  method: 'post',
  path: '/me/sign-in',
  operationId: 'signInFromHolderPage',
  tags: ['Pages'],
  summary: 'Sign in from the holder’s home (form)',
  description:
    'The sign-in form of `/me`: the same checks and limits as `POST /api/auth/login` (failed attempts per account and ' +
    'network), then the session cookie and back to `/me`; a failure goes back to the form with an error banner.' +
    PAGE_DESCRIPTION_TAIL,
  security: [],
  middleware: [sameSiteForm()] as const,
  request: { query: FormLangQuery, body: form(SignInForm) },
  responses: {
    303: {
      ...BACK,
      headers: { ...BACK.headers, 'Set-Cookie': header('The session cookie, when the sign-in succeeded.') },
    },
    ...REFUSED,
  },
});

export const signOut = defineRoute({
  method: 'post',
  path: '/me/sign-out',
  operationId: 'signOutFromHolderPage',
  tags: ['Pages'],
  summary: 'Sign out from the holder’s home (form)',
  description:
    'Ends the session (as `POST /api/auth/logout`) and goes back to the sign-in page.' +
    PAGE_DESCRIPTION_TAIL,
  security: [],
  middleware: [sameSiteForm()] as const,
  request: { query: FormLangQuery },
  responses: {
    303: { ...BACK, headers: { ...BACK.headers, 'Set-Cookie': header('Clears the session cookie.') } },
    ...REFUSED,
  },
});

export const ConsentForm = z.object({
  purpose: z.enum(CONSENT_PURPOSES).openapi({ description: 'The purpose.' }),
  action: z.enum(['grant', 'revoke']).openapi({ description: 'Grant or withdraw.' }),
  return: z
    .string()
    .max(30)
    .regex(/^\/verify\/VP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    .optional()
    .openapi({
      description:
        'With `public_verification`: the certificate page (`/verify/{certificateNo}`) the holder pressed “show my name” on; ' +
        'the answer goes back there instead of to `/me`.',
    }),
});

export const consent = defineRoute({
  method: 'post',
  path: '/me/consents',
  operationId: 'recordConsentFromHolderPage',
  tags: ['Pages'],
  summary: 'Grant or withdraw a consent from the holder’s home (form)',
  description:
    'As `POST /api/consent`, citing the current notice (shown on the page) in the page’s language (`lang`, else ' +
    '`Accept-Language`; English where the notice is not translated): appended to the consent ledger, effective at once.' +
    PAGE_DESCRIPTION_TAIL,
  security: [],
  middleware: [sameSiteForm()] as const,
  request: { query: FormLangQuery, body: form(ConsentForm) },
  responses: { 303: BACK, ...REFUSED },
});

export const AliasForm = z.object({
  publicAlias: z
    .string()
    .max(200)
    .openapi({ description: 'The leaderboard alias (2–40 characters); empty clears it.' }),
});

export const publicName = defineRoute({
  method: 'post',
  path: '/me/public-name',
  operationId: 'setPublicAliasFromHolderPage',
  tags: ['Pages'],
  summary: 'Set or clear the leaderboard alias from the holder’s home (form)',
  description: `As \`PATCH /api/me\` with \`publicAlias\` (empty clears it).${PAGE_DESCRIPTION_TAIL}`,
  security: [],
  middleware: [sameSiteForm()] as const,
  request: { query: FormLangQuery, body: form(AliasForm) },
  responses: { 303: BACK, ...REFUSED },
});

const GrantParams = z.object({
  grantId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'grantId', in: 'path' }, description: 'The grant’s id.' }),
});

export const revokeApplication = defineRoute({
  method: 'post',
  path: '/me/applications/{grantId}/revoke',
  operationId: 'revokeApplicationFromHolderPage',
  tags: ['Pages'],
  summary: 'Revoke a connected application from the holder’s home (form)',
  description:
    'As `DELETE /api/me/oauth-grants/{grantId}`: the grant and its tokens end at once. A grant that is not the ' +
    'holder’s goes back with an error banner.' +
    PAGE_DESCRIPTION_TAIL,
  security: [],
  middleware: [sameSiteForm()] as const,
  request: { params: GrantParams, query: FormLangQuery },
  responses: { 303: BACK, ...REFUSED },
});

export const resendConfirmation = defineRoute({
  method: 'post',
  path: '/me/email-confirmation',
  operationId: 'resendConfirmationFromHolderPage',
  tags: ['Pages'],
  summary: 'Ask for a new email confirmation link from the holder’s home (form)',
  description:
    'As `POST /api/me/email-confirmation`: a new link to the account’s address (at most three an hour).' +
    PAGE_DESCRIPTION_TAIL,
  security: [],
  middleware: [sameSiteForm()] as const,
  request: { query: FormLangQuery },
  responses: { 303: BACK, ...REFUSED },
});

const CertificateParams = z.object({
  certificateNo: z
    .string()
    .min(1)
    .max(64)
    .openapi({
      param: { name: 'certificateNo', in: 'path' },
      description: 'One of the holder’s certificates.',
    }),
});

export const DigiLockerForm = z.object({
  enabled: z.enum(['on', 'off']).openapi({ description: 'Turn DigiLocker fetching on or off.' }),
});

export const setDigiLocker = defineRoute({
  method: 'post',
  path: '/me/certificates/{certificateNo}/digilocker',
  operationId: 'setDigiLockerFromHolderPage',
  tags: ['Pages'],
  summary: 'Turn DigiLocker fetching of one certificate off or on from the holder’s home (form)',
  description:
    'As `PATCH /api/me/certificates/{certificateNo}/digilocker`: the holder’s switch, effective at once for ' +
    'DigiLocker’s next request. A certificate that is not the holder’s goes back with an error banner.' +
    PAGE_DESCRIPTION_TAIL,
  security: [],
  middleware: [sameSiteForm()] as const,
  request: { params: CertificateParams, query: FormLangQuery, body: form(DigiLockerForm) },
  responses: { 303: BACK, ...REFUSED },
});

export const createWalletOffer = defineRoute({
  method: 'post',
  path: '/me/certificates/{certificateNo}/credential-offer',
  operationId: 'createCredentialOfferFromHolderPage',
  tags: ['Pages'],
  summary: 'Add a certificate to a wallet from the holder’s home (form)',
  description:
    'As `POST /api/me/certificates/{certificateNo}/credential-offer` (with a transaction code): a new OID4VCI ' +
    'pre-authorized offer, answered as a page with its QR code, its `openid-credential-offer://` link and the ' +
    'six-digit code to type into the wallet. It works once, for ten minutes; the codes are shown only on this page. ' +
    'A certificate that is not the holder’s, or not active and signed, goes back with an error banner.' +
    PAGE_DESCRIPTION_TAIL,
  security: [],
  middleware: [sameSiteForm()] as const,
  request: { params: CertificateParams, query: FormLangQuery },
  responses: {
    200: {
      description: 'The offer, as a page (never stored).',
      headers: PAGE_HEADERS,
      content: htmlContent(
        'A self-contained HTML document (no script) with the offer’s QR code as inline SVG.',
      ),
    },
    303: BACK,
    ...REFUSED,
  },
});
