import type { MiddlewareHandler } from 'hono';
import { ProblemError } from '../../lib/problem';
import type { AppBindings } from '../../middleware/context';
import { assertSameSiteRequest } from '../../middleware/csrf';
import { meCsp } from './me.assets';
import { refusedPage } from './me.templates';
import { wantsHtml } from './pages.problems';

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
      return c.body(
        refusedPage(
          'Forms of your account work only from this site’s own pages. Open the page again and send it from there.',
        ),
        403,
        {
          'Content-Type': 'text/html; charset=utf-8',
          'Cache-Control': 'no-store',
          'Content-Security-Policy': await meCsp(),
        },
      );
    }
    await next();
  };
}
