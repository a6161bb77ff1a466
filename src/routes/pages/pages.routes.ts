import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../http/route';
import { memoiseParse } from '../../http/validation';
import { GZIP_RESPONSE_HEADERS } from '../../lib/content-coding';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../lib/problem';
import { ipRateLimit } from '../../middleware/rate-limit';
import { CertificateNoParams } from '../certificates/certificates.schemas';
import { LeaderboardQuerySchema } from '../leaderboard/leaderboard.schemas';
import { htmlProblems } from './pages.problems';

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
function pageErrors<S extends 400 | 404 | 429>(...statuses: S[]) {
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
    '(`frame-ancestors *`); its CSP allows its own inline style and script and nothing else. Partners paste the ' +
    'one-line `GET /embed/leaderboard.js` snippet instead of writing the iframe themselves.',
  security: [],
  middleware: [htmlProblems('embed'), ipRateLimit()] as const,
  request: {
    query: memoiseParse(LeaderboardQuerySchema.extend({ theme: ThemeParam })),
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
    '(e.g. `web-development`), `data-limit` (e.g. `10`) and `data-theme` (`light` or `dark`), where the leaderboard ' +
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
  summary: 'Certificate verification page (HTML, for people)',
  description:
    'What `GET /api/verify/{certificateNo}` says, as a page: valid or revoked (200), the holder’s name only while ' +
    'they consent to public verification, the brief, employer and dates, a QR code and a copyable link. The ' +
    'browser checks the credential’s signature itself (ES256; EdDSA for credentials issued before ES256) against ' +
    '`/.well-known/jwks.json` (WebCrypto) and ' +
    'that the signed claims are the ones shown. A mistyped number is a 400 page and an unknown one a 404 page ' +
    '(problem+json for clients that do not accept `text/html`).',
  security: [],
  middleware: [htmlProblems('verify')] as const,
  request: { params: CertificateNoParams },
  responses: {
    200: {
      description: 'The certificate (active or revoked) as an HTML page.',
      headers: PAGE_HEADERS,
      content: htmlContent('A self-contained HTML document.'),
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
    'A page that checks, in the browser, a pasted VC-JWT or a baked Open Badges 3.0 badge (PNG `iTXt` ' +
    '`openbadgecredential` or SVG `openbadges:credential`, read locally, never uploaded): the signature (EdDSA or ' +
    'ES256) against the key the credential names at this site (`kid` URL, else `/.well-known/jwks.json`), then ' +
    "the status (the credential's Bitstring Status List when it has one, else `GET /api/verify/{certificateNo}`), " +
    'and shows valid, tampered, revoked or expired. Also a look-up by certificate number.',
  security: [],
  responses: {
    200: {
      description: 'The page.',
      headers: PAGE_HEADERS,
      content: htmlContent('A self-contained HTML document.'),
    },
    304: { description: 'Not modified (matches `If-None-Match`).' },
  },
});
