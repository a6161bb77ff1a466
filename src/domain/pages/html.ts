/**
 * HTML for the human-facing pages. Pages are built with Hono's `html` tagged template
 * (`hono/html`): every interpolated string is escaped (`& < > " '`) unless it is itself the
 * result of `html` or `raw`, arrays are joined and `null`, `undefined` and booleans dropped, so a
 * candidate alias or a brief title can never become markup. What is left here is turning a
 * template into the response body, and the CSP hash of inline assets. Pure: no bindings, no DOM.
 */

import type { html } from 'hono/html';

/** What `html` and `raw` return: markup that is already safe. */
export type Html = ReturnType<typeof html>;

/**
 * The page as a string. `html` only returns a Promise when a Promise was interpolated, which no
 * page does (they are built from data already loaded); refuse rather than send `[object Promise]`.
 */
export function htmlString(markup: Html): string {
  if (markup instanceof Promise) throw new TypeError('Page templates must not interpolate Promises');
  return markup.toString();
}

/** `'sha256-…'` for a Content-Security-Policy hash source of an inline `<script>` or `<style>`. */
export async function cspHash(source: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source));
  let binary = '';
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}
