/**
 * The components of the pages, named for what they show (after the GOV.UK Design System):
 * summary list, notification banner, panel, button, error summary, tag, details. Each returns
 * `html` markup styled by `/assets/site.css`; every value is escaped by the template.
 */
import { html } from 'hono/html';
import type { Html } from '../../domain/pages/html';

type Content = Html | string;

export type SummaryRow = {
  key: Content;
  value: Content;
  /** An id on the value (tests and scripts find it by it). */
  id?: string;
};

/** Key–value rows (a certificate's facts). Rows with a null value are left out. */
export function summaryList(rows: readonly (SummaryRow | null | false)[], id?: string): Html {
  const shown = rows.filter((r): r is SummaryRow => !!r);
  return html`<dl class="summary-list"${id ? html` id="${id}"` : ''}>
${shown.map(
  (
    r,
  ) => html`<div class="summary-list__row"><dt class="summary-list__key">${r.key}</dt><dd class="summary-list__value"${r.id ? html` id="${r.id}"` : ''}>${r.value}</dd></div>
`,
)}</dl>`;
}

export type BannerType = 'success' | 'warning' | 'error' | 'info';

/**
 * A notification banner: a coloured header (its kind, in words) and its content. Success and
 * error banners are announced (`role="alert"` for errors, `role="status"` otherwise).
 */
export function notificationBanner(o: {
  type: BannerType;
  /** The header line (e.g. "Important", "Success"). */
  label: Content;
  heading?: Content;
  body?: Content;
  id?: string;
}): Html {
  const role = o.type === 'error' ? 'alert' : o.type === 'success' ? 'status' : 'region';
  const labelId = `${o.id ?? 'banner'}-title`;
  return html`<div class="banner banner--${o.type}" role="${role}" aria-labelledby="${labelId}"${o.id ? html` id="${o.id}"` : ''}>
<h2 class="banner__header" id="${labelId}">${o.label}</h2>
<div class="banner__content">
${o.heading ? html`<p class="banner__heading">${o.heading}</p>` : ''}
${o.body ?? ''}
</div>
</div>`;
}

/** The panel that confirms a finished flow ("Email address confirmed"). */
export function panel(o: { title: Content; body?: Content; id?: string }): Html {
  return html`<div class="panel"${o.id ? html` id="${o.id}"` : ''}>
<h1 class="panel__title">${o.title}</h1>
${o.body ? html`<div class="panel__body">${o.body}</div>` : ''}
</div>`;
}

export type ButtonOptions = {
  text: Content;
  /** A link styled as a button; otherwise a `<button>`. */
  href?: string;
  type?: 'submit' | 'button';
  variant?: 'primary' | 'secondary' | 'warning' | 'start';
  name?: string;
  value?: string;
  id?: string;
  /** Hidden until a script shows it (enhancements such as "Copy"). */
  hidden?: boolean;
};

export function button(o: ButtonOptions): Html {
  const cls = `button${o.variant && o.variant !== 'primary' ? ` button--${o.variant}` : ''}`;
  const id = o.id ? html` id="${o.id}"` : '';
  const hidden = o.hidden ? html` hidden` : '';
  if (o.href)
    return html`<a href="${o.href}" role="button" draggable="false" class="${cls}"${id}${hidden}>${o.text}</a>`;
  return html`<button type="${o.type ?? 'submit'}" class="${cls}"${id}${o.name ? html` name="${o.name}"` : ''}${o.value !== undefined ? html` value="${o.value}"` : ''}${hidden}>${o.text}</button>`;
}

/** The summary of a form's errors, first on the page, each linking to its field. */
export function errorSummary(o: {
  title: Content;
  errors: readonly { href: string; text: Content }[];
}): Html {
  return html`<div class="error-summary" role="alert" tabindex="-1" id="error-summary">
<h2 class="error-summary__title">${o.title}</h2>
<ul class="error-summary__list">
${o.errors.map((e) => html`<li><a href="${e.href}">${e.text}</a></li>\n`)}</ul>
</div>`;
}

export type TagColour = 'green' | 'amber' | 'red' | 'grey' | 'blue';

/** A short status word ("Verified", "Revoked"). */
export function tag(text: Content, colour: TagColour = 'blue', id?: string): Html {
  return html`<strong class="tag${colour === 'blue' ? '' : ` tag--${colour}`}"${id ? html` id="${id}"` : ''}>${text}</strong>`;
}

/** Folded content (technical details): a native `<details>`, works without script. */
export function details(summary: Content, body: Content, id?: string): Html {
  return html`<details class="details"${id ? html` id="${id}"` : ''}>
<summary class="details__summary">${summary}</summary>
<div class="details__text">
${body}
</div>
</details>`;
}
