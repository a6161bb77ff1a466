import type { MiddlewareHandler } from 'hono';
import { ProblemError } from '../../lib/problem';
import type { AppBindings } from '../../middleware/context';
import { assertSameSiteRequest } from '../../middleware/csrf';
import { chooseLanguage } from './i18n';
import { pageHeaders } from './layout';
import { refusedPage } from './me.templates';
import { wantsHtml } from './pages.problems';
import { pageViewer } from './pages.viewer';

/**
 * The forms of `/me` change state with the session cookie, so they follow the project's CSRF
 * rule (src/middleware/csrf.ts) before anything else, the form's fields included: a page's own
 * form sends its `Origin`; any other is refused, with a page for a browser.
 */
export function sameSiteForm(): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    try {
      assertSameSiteRequest(c);
    } catch (error) {
      if (!(error instanceof ProblemError) || !wantsHtml(c.req.header('Accept'))) throw error;
      const lang = chooseLanguage(c.req.raw);
      const { signedIn } = await pageViewer(c);
      return c.body(refusedPage(lang, signedIn), 403, { ...pageHeaders(lang), 'Cache-Control': 'no-store' });
    }
    await next();
  };
}
