import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { memoiseParse } from '../../http/validation';
import { GZIP_RESPONSE_HEADERS } from '../../lib/content-coding';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../lib/problem';
import { ipRateLimit } from '../../middleware/rate-limit';
import { CertificateNoParams } from '../certificates/certificates.schemas';
import { LeaderboardQuerySchema } from '../leaderboard/leaderboard.schemas';
import { htmlProblems, verifierBodyLimit } from './pages.problems';

type Header = { description: string; schema: { type: 'string' } };
const header = (description: string): Header => ({ description, schema: { type: 'string' } });

const PAGE_HEADERS = {
  ETag: header('Changes when the page does.'),
  'Cache-Control': header('`public, max-age=…`: the page may be cached briefly.'),
  'Content-Security-Policy': header(
    "The page's own policy: its inline style and script by hash, nothing else.",
  ),
};

const htmlContent = (description: string) => ({
  'text/html': { schema: z.string().openapi({ description }) },
});

/**
 * `errorResponses` plus a `text/html` representation: these routes answer errors with an HTML
 * page when the request's `Accept` lists `text/html` (a browser), and with problem+json otherwise.
 */
function pageErrors<S extends 400 | 404 | 413 | 415 | 422 | 429>(...statuses: S[]) {
  const base = errorResponses(...statuses);
  const out = {} as Record<S | 500, (typeof base)[S | 500] & { content: Record<string, unknown> }>;
  for (const [status, response] of Object.entries(base) as [`${S | 500}`, (typeof base)[S | 500]][]) {
    out[Number(status) as S | 500] = {
      ...response,
      content: {
        ...response.content,
        ...htmlContent('The same error as a page, for browsers (`Accept: text/html`).'),
      },
    };
  }
  return out;
}

/** `?lang=`: the page's language, before `Accept-Language` (issue 52). */
export const LangParam = z
  .enum(['en', 'hi'])
  .optional()
  .openapi({
    param: { name: 'lang', in: 'query' },
    description:
      'The page’s language: `en` (English) or `hi` (Hindi). Without it, the best of the two in `Accept-Language`, else English.',
  });

const LANG_HEADERS = {
  'Content-Language': header('The language the page is in (`en` or `hi`).'),
  Vary: header('`Accept-Language`: the language is chosen by it when `lang` is absent.'),
};

export const ThemeParam = z
  .enum(['light', 'dark'])
  .default('light')
  .openapi({
    param: { name: 'theme', in: 'query' },
    description: 'Colour scheme of the embed.',
  });

export const embedLeaderboard = defineRoute({
  method: 'get',
  path: '/embed/leaderboard',
  operationId: 'getLeaderboardEmbed',
  tags: ['Pages'],
  summary: 'Embeddable leaderboard page (HTML, for an iframe)',
  description:
    'The public leaderboard (`GET /api/leaderboard`: the same cached board, the same consent rule, the same `limit` ' +
    'bounds and the same per-IP limit of 60 requests per minute, shared with it) as a small self-contained HTML table ' +
    'for an `<iframe>` on partner sites. This is the only route any site may frame ' +
    '(`frame-ancestors *`); its CSP allows its own inline style and script and nothing else. In English or Hindi ' +
    '(`lang`, else the visitor’s `Accept-Language`). A candidate who shows their own name links to their latest ' +
    'certificate’s page, opened in a new tab. Partners paste the ' +
    'one-line `GET /embed/leaderboard.js` snippet instead of writing the iframe themselves.',
  security: [],
  middleware: [htmlProblems('embed'), ipRateLimit()] as const,
  request: {
    query: memoiseParse(LeaderboardQuerySchema.extend({ theme: ThemeParam, lang: LangParam })),
  },
  responses: {
    200: {
      description: 'The leaderboard as an HTML page (gzip-encoded when the client accepts gzip).',
      headers: { ...RATE_LIMIT_HEADERS, ...PAGE_HEADERS, ...GZIP_RESPONSE_HEADERS },
      content: htmlContent('A self-contained HTML document (inline CSS, no external requests).'),
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
    ...pageErrors(400, 429),
  },
});

export const embedLoader = defineRoute({
  method: 'get',
  path: '/embed/leaderboard.js',
  operationId: 'getLeaderboardEmbedScript',
  tags: ['Pages'],
  summary: 'Script that embeds the leaderboard on a partner page',
  description:
    'Add a `script` element whose `src` is this URL (on your deployment, e.g. ' +
    '`https://api.example.com/embed/leaderboard.js`), with `async` and the optional attributes `data-domain` ' +
    '(e.g. `web-development`), `data-limit` (e.g. `10`), `data-theme` (`light` or `dark`) and `data-lang` (`en` or ' +
    '`hi`; else the visitor’s browser language), where the leaderboard ' +
    'should appear: the script inserts a sandboxed, titled iframe of `/embed/leaderboard` after itself and sizes it ' +
    'to its content; `data-title` and `data-width` are optional too. ' +
    'Served with open CORS and `Cross-Origin-Resource-Policy: cross-origin`.',
  security: [],
  responses: {
    200: {
      description: 'The loader script, gzip-encoded when the request accepts gzip.',
      headers: { 'Cache-Control': header('`public, max-age=3600`.'), ...GZIP_RESPONSE_HEADERS },
      content: { 'text/javascript': { schema: z.string() } },
    },
  },
});

export const verifyPage = defineRoute({
  method: 'get',
  path: '/verify/{certificateNo}',
  operationId: 'getVerificationPage',
  tags: ['Pages'],
  summary: 'Certificate page (HTML, for people)',
  description:
    'What `GET /api/verify/{certificateNo}` says, as a page: the verdict first (valid and issued by a verified ' +
    'organisation; or revoked, expired, suspended, not yet valid), then the badge and the achievement, its ' +
    'description and criteria, the rubric criteria assessed with the level reached (from the signed credential), ' +
    'the issuer linked to its profile with how the platform verified it, the dates in words, the holder’s name only ' +
    'while they consent to public verification, share (link, QR code, LinkedIn, badges, PDF) and, folded away, the ' +
    'decoded credential and a signature check the browser runs itself against `/.well-known/jwks.json`. Open Graph ' +
    'and Twitter card tags carry the badge image. In English or Hindi (`lang`, else `Accept-Language`). A mistyped ' +
    'number is a 400 page and an unknown one a 404 page (problem+json for clients that do not accept `text/html`). ' +
    'Example: [/verify/VP-DEM0-CERT-1FY3](/verify/VP-DEM0-CERT-1FY3).',
  security: [],
  middleware: [htmlProblems('verify')] as const,
  request: { params: CertificateNoParams, query: z.object({ lang: LangParam }) },
  responses: {
    200: {
      description: 'The certificate (in any state) as an HTML page.',
      headers: { ...PAGE_HEADERS, ...LANG_HEADERS },
      content: htmlContent('An HTML document on the site’s layout (stylesheet /assets/site.css).'),
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
    ...pageErrors(400, 404),
  },
});

export const verifierPage = defineRoute({
  method: 'get',
  path: '/verify',
  operationId: 'getCredentialVerifierPage',
  tags: ['Pages'],
  summary: 'Check any credential or baked badge (HTML, for people)',
  description:
    'A form that sends a baked Open Badges 3.0 badge (PNG or SVG) or a pasted credential (VC-JWT or JSON) to ' +
    '`POST /verify`, which shows the server verifier’s answer, and a look-up by certificate number: with `no`, ' +
    'this answers 303 to `/verify/{no}` when it is a well-formed number, and a 400 (a page for browsers) when it ' +
    'is not. Works without script.',
  security: [],
  middleware: [htmlProblems('lookup')] as const,
  request: {
    query: z.object({
      lang: LangParam,
      no: z
        .string()
        .max(100)
        .optional()
        .openapi({
          param: { name: 'no', in: 'query' },
          description: 'A certificate number to look up: the answer is a 303 to its page.',
          example: 'VP-DEM0-CERT-1FY3',
        }),
    }),
  },
  responses: {
    200: {
      description: 'The page.',
      headers: { ...PAGE_HEADERS, ...LANG_HEADERS },
      content: htmlContent('An HTML document on the site’s layout.'),
    },
    303: {
      description: 'A look-up (`no`): the certificate’s page.',
      headers: { Location: header('`/verify/{no}`.') },
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
    ...pageErrors(400),
  },
});

export const VerifierFormSchema = z
  .object({
    badge: z.unknown().optional().openapi({
      type: 'string',
      format: 'binary',
      maxLength: 1_048_576,
      description: 'A baked badge image (PNG or SVG), up to 1 MB.',
    }),
    credential: z
      .string()
      .max(1_048_576)
      .optional()
      .openapi({ description: 'Or the credential: a VC-JWT or the credential as JSON.' }),
    url: z
      .string()
      .max(2048)
      .optional()
      .openapi({
        description:
          'Or a link to the badge (used when neither of the above is given): fetched and read as ' +
          '`POST /api/credentials/verify` reads `url` (decision 0357).',
      }),
    lang: z.string().max(16).optional().openapi({ description: 'The page’s language (`en` or `hi`).' }),
  })
  .openapi('VerifierForm');

export const verifierSubmit = defineRoute({
  method: 'post',
  path: '/verify',
  operationId: 'submitCredentialVerifierPage',
  tags: ['Pages'],
  summary: 'Check a credential or baked badge from the /verify form (HTML)',
  description:
    'The `/verify` form’s target (`multipart/form-data`): runs the platform’s verifier (the same as ' +
    '`POST /api/credentials/verify`, sharing its per-IP limit of 60 a minute) on the uploaded badge or the ' +
    'pasted credential and shows its answer in one of three honest states: issuer verified here (green, with how), ' +
    'a genuine signature by an issuer nobody here vetted (amber: the issuer’s id shown, its name marked as its own ' +
    'claim), or invalid, altered, revoked or expired (red, the state first, no claim of an altered credential ' +
    'restated). A credential of this platform is also compared with the certificate’s current record. Nothing is ' +
    'stored. A baked badge’s image is shown beside its claims, from the bytes that were checked (decision 0358). ' +
    'A `url` is fetched under the verifier’s outside-fetch rules; one that gives no credential is a 422 page with ' +
    'the form again, the link kept. Nothing sent is a 400 page with the form again.',
  security: [],
  middleware: [htmlProblems('verifier'), ipRateLimit(), verifierBodyLimit] as const,
  request: {
    body: {
      content: { 'multipart/form-data': { schema: VerifierFormSchema } },
      required: true,
    },
  },
  responses: {
    200: {
      description: 'The verifier’s answer as a page (whatever the verdict).',
      headers: { ...RATE_LIMIT_HEADERS, ...LANG_HEADERS },
      content: htmlContent('An HTML document on the site’s layout.'),
    },
    ...pageErrors(400, 413, 415, 429),
    422: {
      ...pageErrors(422)[422],
      description:
        'The `url` was refused or gave no credential (`credential-url-refused`, `credential-url-unreachable`): for a ' +
        'browser the form again, the link kept, and why; or a field over its limit (`validation-failed`).',
    },
  },
});

export const homePage = defineRoute({
  method: 'get',
  path: '/',
  operationId: 'getHomePage',
  tags: ['Pages'],
  summary: 'Landing page (HTML)',
  description:
    'What the platform is, a form to check a certificate by number (to `GET /verify?no=`), and links to check ' +
    'any credential, to the API documentation and to sign in. In English or Hindi.',
  security: [],
  request: { query: z.object({ lang: LangParam }) },
  responses: {
    200: {
      description: 'The page.',
      headers: { ...PAGE_HEADERS, ...LANG_HEADERS },
      content: htmlContent('An HTML document on the site’s layout.'),
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
  },
});
