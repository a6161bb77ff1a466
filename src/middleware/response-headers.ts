/**
 * What the header middleware and `finishedResponse` (./finished-response.ts) share: the headers
 * they work on, and whether a response already carries every header.
 */
import type { Context } from 'hono';

/** What the header rules need of a response's headers: `Headers` has it, and so does `finishedResponse`'s list. */
export type HeaderBag = {
  has(name: string): boolean;
  get(name: string): string | null;
  set(name: string, value: string): void;
};

/**
 * Whether the response going out is the one `finishedResponse` built, which carries every header
 * already. Kept on the context (no registry of responses to grow or collect).
 */
export function isFinished(c: Context): boolean {
  const built: Response | undefined = c.get('finished');
  return built !== undefined && built === c.res;
}
