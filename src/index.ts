/**
 * The Worker's entry. Kept small on purpose (issue 54, decision 0324): a cold isolate evaluates
 * only what this file imports statically, and the app (every route's schemas, the OpenAPI
 * metadata, zxcvbn, the pillars' tables…) is imported with `await import()` by the first request
 * that needs it. esbuild keeps those modules in the same file but wraps them in lazy init
 * functions: parsed at startup, evaluated on first use. The public reads memory already holds
 * (src/http/memory-reads.ts) and a verification whose payload is in KV (src/http/cold-reads.ts)
 * are answered without the app; everything else goes to it. `npm run budget` fails when a static
 * import from here reaches the app again (scripts/bundle-budget.mjs, LAZY_ONLY).
 */
import { answerFromKv, coldPageNumber, pathOf } from './http/cold-reads';
import { useLogLevel } from './lib/log';
import { answerColdPage } from './routes/pages/pages.drawn';
// (No imports of its own: a few string maps.)
import { asImsx } from './services/portability/imsx';

export { KvCoalescer } from './durable/kv-coalescer';
export { RateLimiter } from './durable/rate-limiter';

type Fetch = (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;

/** The app's fetch, once the app has been imported (as `fetch: app.fetch` did). */
let serveApp: Fetch | undefined;
/** The memory reads, imported with the app: until then, nothing but the app fills what they read. */
let answerFromMemory: typeof import('./http/memory-reads').answerFromMemory | undefined;

/** The app's fetch: at once when loaded, else after importing it (once per isolate). */
function appFetch(): Fetch | Promise<Fetch> {
  if (serveApp) return serveApp;
  // Each request imports for itself (the runtime evaluates the modules once): a promise made in
  // one request's context is not shared with another's.
  return Promise.all([import('./app'), import('./http/memory-reads')]).then(([app, memory]) => {
    answerFromMemory = memory.answerFromMemory;
    // The fetch as the app module built it (not `app.fetch` as it may be by now: src/app.ts).
    serveApp = app.serveApp;
    return serveApp;
  });
}

/** `request` answered by the app. */
function toApp(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
  const fetch = appFetch();
  return fetch instanceof Promise ? fetch.then((f) => f(request, env, ctx)) : fetch(request, env, ctx);
}

/** The Open Badges API: the app's answer, its errors as `Imsx_StatusInfo` rather than problem+json. */
async function imsApi(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const response = await toApp(request, env, ctx);
  return response.status >= 400 ? asImsx(response) : response;
}

export default {
  // The OAuth 2.0 token, registration and metadata endpoints of the Open Badges API are the OAuth
  // library's (src/http/oauth-entry.ts); everything else, the authorization page included, is the
  // app's. Errors under /ims/ are the Open Badges API's `Imsx_StatusInfo`, not problem+json.
  // Not async, and no URL parsed: this runs on every request, the hot public reads included.
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    useLogLevel(env.LOG_LEVEL);
    const path = pathOf(request.url);
    if (path.startsWith('/oauth/') || path.startsWith('/.well-known/oauth-'))
      return import('./http/oauth-entry').then((oauth) =>
        oauth.answerOAuth(request, env, ctx, path, () => toApp(request, env, ctx)),
      );
    if (!path.startsWith('/ims/')) {
      if (answerFromMemory) return answerFromMemory(request, env, ctx, path) ?? toApp(request, env, ctx);
      // Before the app is loaded: a verification from memory or KV (then the app reads KV itself,
      // the same way, and one KV miss is never read twice).
      if (coldPageNumber(request, path) !== null)
        // The certificate page as drawn before, kept in KV beside its payload (decision 0339), else
        // drawn by its own builder and template (decision 0325).
        return answerColdPage(request, env, (p) => ctx.waitUntil(p), path).then(
          (page) => page ?? toApp(request, env, ctx),
        );
      const early = answerFromKv(request, env, ctx, path);
      if (early === null) return toApp(request, env, ctx);
      if (early instanceof Response) return early;
      return early.then((answer) => answer ?? toApp(request, env, ctx));
    }
    return imsApi(request, env, ctx);
  },
  async queue(batch, env) {
    useLogLevel(env.LOG_LEVEL);
    const { consumeDeadLetters, consumeJobBatch, DEAD_LETTER_QUEUE } = await import('./queue/consumer');
    if (batch.queue === DEAD_LETTER_QUEUE) await consumeDeadLetters(batch, env);
    else await consumeJobBatch(batch, env);
  },
  async scheduled(controller, env, ctx) {
    useLogLevel(env.LOG_LEVEL);
    const { runScheduled } = await import('./scheduled');
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Env>;
