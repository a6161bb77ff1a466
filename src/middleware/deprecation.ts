import type { MiddlewareHandler } from 'hono';
import type { AppBindings } from '../middleware/context';

/** The headers a deprecated alias documents on its responses. */
export const SUCCESSOR_HEADERS = {
  Deprecation: {
    description:
      'RFC 9745: this operation is deprecated, since the given time (a Structured Field Date, `@` and Unix seconds).',
    schema: { type: 'string' as const, example: '@1795392000' },
  },
  Link: {
    description: 'The operation that replaces this one: `<…>; rel="successor-version"`.',
    schema: {
      type: 'string' as const,
      example: '<https://api.example.com/api/v1/rubrics/generate>; rel="successor-version"',
    },
  },
};

/**
 * Marks every response of a deprecated alias (errors included): `Deprecation: @<unix seconds>`
 * (RFC 9745) and `Link: <successor>; rel="successor-version"` (RFC 5829), absolute on this origin.
 */
export function deprecatedAlias(successorPath: string, since: Date): MiddlewareHandler<AppBindings> {
  const deprecation = `@${Math.floor(since.getTime() / 1000)}`;
  return async (c, next) => {
    await next();
    const successor = new URL(successorPath, c.env.PUBLIC_BASE_URL || c.req.url).href;
    c.res.headers.set('Deprecation', deprecation);
    c.res.headers.set('Link', `<${successor}>; rel="successor-version"`);
  };
}
