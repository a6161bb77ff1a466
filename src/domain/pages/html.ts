/**
 * Escaping for the human-facing HTML pages. Pages are built with the {@link html} tagged
 * template: every interpolated value is escaped unless it is already {@link Html} (the result of
 * another `html` template or of {@link raw}), so a candidate alias or a brief title can never
 * become markup. Pure: no bindings, no DOM.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);
}

/** Markup that is already safe. Only `html` and `raw` make one. */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/** Marks trusted, constant markup (styles, scripts, SVG built here) as safe. Never pass user input. */
export const raw = (value: string): Html => new Html(value);

type Interpolation = Html | string | number | null | undefined | false | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** `html\`<td>${alias}</td>\``: strings and numbers are escaped, arrays joined, null/false dropped. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** `'sha256-…'` for a Content-Security-Policy hash source of an inline `<script>` or `<style>`. */
export async function cspHash(source: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(source));
  let binary = '';
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}
