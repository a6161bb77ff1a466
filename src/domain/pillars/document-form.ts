/**
 * The shape of a brief, line by line: what is form and what is content. A brief's structure
 * (speaker prefixes and timestamps of a chat export, Given/When/Then keywords, table borders and
 * header rows, `>` quoting, mail headers) is form, never content: the reader keeps only the
 * words of each ask, as a verbatim slice, and never splices two messages, speakers or rows
 * into one sentence.
 *
 * `lineForms` reads a whole text (the shapes need their neighbours: one timestamped line is
 * not a chat, two are) and returns, for every line, what it is:
 *
 * - `skip`: form only ("On Mon, 30 Nov … wrote:", "---------- Forwarded message ---------",
 *   "From: …", a table's border or header row, a Slack-style "Name [10:02 AM]" line);
 * - `item`: one ask of its own (a chat message, a table row, a quoted line, a story's "Then"
 *   or "I want" line), starting at `from` (after the prefix) with an optional `leadIn` (the
 *   table's header, the scenario's "When" line);
 * - `context`: a line that sets an ask up without asking ("Given …", "When …", "As a …",
 *   "So that …", "Scenario: …", "Feature: …"), starting at `from`;
 * - `null`: ordinary prose, list items and headings, read as before.
 */

export type LineForm =
  | { kind: 'skip' }
  | { kind: 'item'; from: number; to?: number; leadIn: string | null; title?: string }
  | { kind: 'context'; from: number }
  | null;

/** "[10:02] Name: ", "10:02 - Name: ", "[10:02 AM] Name: ", "01/12/26, 09:14 - Name: ", "[01/12/26, 09:14:05] Name: ", "Tuesday 9:14 AM - Name: ". */
const CHAT_PREFIX =
  /^[ \t]*(?:\[?(?:\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4},?\s+|(?:(?:[Mm]on|[Tt]ues|[Ww]ednes|[Tt]hurs|[Ff]ri|[Ss]atur|[Ss]un)day|[Tt]oday|[Yy]esterday|[Mm]on|[Tt]ue|[Ww]ed|[Tt]hu|[Ff]ri|[Ss]at|[Ss]un),?\s+)?\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?\]?\s*(?:[-–—]\s*)?)(?:[\p{Lu}][\p{L}\p{M}.'’-]*(?:\s[\p{Lu}][\p{L}\p{M}.'’-]*){0,2})\s*:\s+/u;
/** A Slack or Teams export's message header: "Nisha [10:02 AM]", "Farhan  10:04 AM". */
const CHAT_HEADER =
  /^[ \t]*[\p{Lu}][\p{L}\p{M}.'’-]*(?:\s[\p{Lu}][\p{L}\p{M}.'’-]*){0,2}\s+\[?\d{1,2}:\d{2}(?:\s?[AaPp]\.?[Mm]\.?)?\]?[ \t]*$/u;

/** Mail form: the reply's attribution, a forward's separator and its headers. */
const MAIL_FORM =
  /^[ \t]*(?:>[ \t]*)*(?:on\s.{4,120}\swrote:|-{3,}\s*(?:forwarded|original) message\s*-{3,}|(?:from|to|cc|bcc|sent|date|subject):\s.*|begin forwarded message:)[ \t]*$/i;
const QUOTE = /^[ \t]*(?:>[ \t]?)+/;

/** Gherkin and user-story keywords. */
const STORY_CONTEXT = /^[ \t]*(?:given|when|as an?|as the|so that|in order to)\b[ \t]*/i;
const STORY_OUTCOME = /^[ \t]*(?:then|i want(?: to)?|i need(?: to)?|i can)\b[ \t]*/i;
const STORY_AND = /^[ \t]*(?:and|but)\b[ \t]+/i;
const STORY_HEADING =
  /^[ \t]*(?:feature|scenario(?: outline)?|background|examples|rule|story(?: \d+)?|user story(?: \d+)?|acceptance criteria)\b[^:\n]{0,60}:?[^\n]{0,80}$/i;

/** A pipe table's border: "|---|:--:|", "+-----+". */
const PIPE_BORDER = /^[ \t]*[|+]?[ \t]*:?-{2,}:?[ \t]*(?:[|+][ \t]*:?-{2,}:?[ \t]*)*[|+]?[ \t]*$/;
const isPipeRow = (line: string) =>
  (line.match(/\|/g) ?? []).length >= 2 || /^[ \t]*\|.*\|[ \t]*$/.test(line);
const isTabRow = (line: string) => /\S\t+\S/.test(line);
/** Columns aligned with spaces: at least two gaps of three or more spaces between words. */
const isAlignedRow = (line: string) => (line.trim().match(/\S {3,}(?=\S)/g) ?? []).length >= 2;

/** A table's cells, trimmed, without empty border cells. */
export function tableCells(line: string): string[] {
  const t = line.trim();
  const parts = t.includes('|')
    ? t.replace(/^\||\|$/g, '').split('|')
    : t.includes('\t')
      ? t.split(/\t+/)
      : t.split(/ {3,}/);
  return parts.map((c) => c.trim()).filter((c) => c !== '');
}

/** A header row: every cell a short label (at most four words, no digits, no sentence end). */
function isHeaderRow(line: string): boolean {
  const cells = tableCells(line);
  return (
    cells.length >= 2 &&
    cells.every((c) => c.split(/\s+/).length <= 4 && !/\d/.test(c) && !/[.;!?]$/.test(c) && c !== '#') !==
      false &&
    cells.filter((c) => c !== '#').length >= 2
  );
}

/**
 * A table row's content: after the border and any index cell ("| 1 |"), up to the last
 * non-empty cell. The first cell stays: in "Revenue<TAB>by product line and month" or "Lobby |
 * mop and dust | daily" it is the subject of the ask (and a name's cut at the cell boundary
 * keeps it as the name).
 */
function rowContent(line: string): { from: number; to: number; label: string | null } {
  const m = /^[ \t]*\|?[ \t]*(?:#?\d{1,3}[ \t]*\|[ \t]*)?/.exec(line);
  const from = m ? m[0].length : 0;
  const to = line.replace(/[\s|+]+$/, '').length;
  return { from, to: Math.max(from, to), label: null };
}

const CHAT_FILLER =
  /^(?:ok(?:ay)?|k|yes|yeah|yep|yup|no|right|sure|agreed|done|cool|great|nice|perfect|thanks?|thank you|ty|noted|got it|hi|hello|hey|hmm+|lol|\+1|👍)(?:[\s.,!]+(?:ok(?:ay)?|yes|right|sure|thanks?|all|everyone|team|so|then))*[\s.,!]*$/iu;

/** Whether a chat message is only a reply that asks for nothing ("ok", "yes.", "right, thanks"). */
export function isChatFiller(text: string): boolean {
  return CHAT_FILLER.test(text.trim());
}

export function lineForms(lines: readonly string[]): LineForm[] {
  const out: LineForm[] = lines.map(() => null);
  const chat = lines.filter((l) => CHAT_PREFIX.test(l)).length >= 2;
  const slack = lines.filter((l) => CHAT_HEADER.test(l)).length >= 2;
  const story = lines.some((l) => STORY_CONTEXT.test(l)) && lines.some((l) => STORY_OUTCOME.test(l));
  let inSlackMessage = false;
  let storyRole: 'context' | 'outcome' | null = null;
  let storyLead: string | null = null;
  let storyTitle: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') {
      inSlackMessage = false;
      storyRole = null;
      continue;
    }
    if (MAIL_FORM.test(line)) {
      out[i] = { kind: 'skip' };
      continue;
    }
    if (chat) {
      const m = CHAT_PREFIX.exec(line);
      if (m) {
        out[i] = { kind: 'item', from: m[0].length, leadIn: null };
        continue;
      }
    }
    if (slack) {
      if (CHAT_HEADER.test(line)) {
        out[i] = { kind: 'skip' };
        inSlackMessage = true;
        continue;
      }
      if (inSlackMessage) {
        out[i] = { kind: 'item', from: line.length - line.trimStart().length, leadIn: null };
        continue;
      }
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      const rest = line.slice(quote[0].length);
      if (rest.trim() === '') out[i] = { kind: 'skip' };
      else {
        const bullet = /^(?:[-*•]|\d{1,3}[.)])[ \t]+/.exec(rest);
        out[i] = { kind: 'item', from: quote[0].length + (bullet?.[0].length ?? 0), leadIn: null };
      }
      continue;
    }
    if (story) {
      if (STORY_HEADING.test(line) && !STORY_CONTEXT.test(line) && !STORY_OUTCOME.test(line)) {
        // "Scenario: Price drop": the author's own name for the scenario's ask.
        const titled =
          /^[ \t]*(?:scenario(?: outline)?|story(?: \d+)?|user story(?: \d+)?)\s*:\s*(.{2,60}?)\s*$/i.exec(
            line,
          );
        storyTitle = titled?.[1] ?? null;
        out[i] = { kind: 'skip' };
        storyRole = null;
        continue;
      }
      const context = STORY_CONTEXT.exec(line);
      const outcome = STORY_OUTCOME.exec(line);
      const and = STORY_AND.exec(line);
      if (context) {
        storyRole = 'context';
        storyLead = line.slice(context[0].length).trim();
        out[i] = { kind: 'context', from: context[0].length };
        continue;
      }
      if (outcome) {
        storyRole = 'outcome';
        out[i] = {
          kind: 'item',
          from: outcome[0].length,
          leadIn: storyLead,
          ...(storyTitle ? { title: storyTitle } : {}),
        };
        continue;
      }
      if (and && storyRole !== null) {
        out[i] =
          storyRole === 'context'
            ? { kind: 'context', from: and[0].length }
            : { kind: 'item', from: and[0].length, leadIn: storyLead };
      }
    }
  }
  // Tables: runs of at least two rows of the same kind.
  const rowKind = (l: string | undefined) =>
    l === undefined
      ? null
      : isPipeRow(l) || PIPE_BORDER.test(l)
        ? 'pipe'
        : isTabRow(l)
          ? 'tab'
          : isAlignedRow(l)
            ? 'aligned'
            : null;
  for (let i = 0; i < lines.length; ) {
    const kind = rowKind(lines[i]);
    if (kind === null || out[i] !== null) {
      i++;
      continue;
    }
    let j = i;
    // Inside a run of aligned rows, one gap of three spaces is enough ("Parking   we do not …").
    const sameKind = (l: string | undefined) =>
      rowKind(l) === kind || (kind === 'aligned' && l !== undefined && /\S {3,}\S/.test(l.trim()));
    while (j < lines.length && sameKind(lines[j]) && out[j] === null) j++;
    if (j - i >= 2) {
      let header: string | null = null;
      for (let k = i; k < j; k++) {
        const line = lines[k] as string;
        if (PIPE_BORDER.test(line)) {
          out[k] = { kind: 'skip' };
          continue;
        }
        const bordered = k + 1 < j && PIPE_BORDER.test(lines[k + 1] as string);
        if (k === i && (bordered || isHeaderRow(line))) {
          header = tableCells(line).join(', ');
          out[k] = { kind: 'skip' };
          continue;
        }
        const { from, to, label } = rowContent(line);
        out[k] = { kind: 'item', from, to, leadIn: header ?? label };
      }
    }
    i = Math.max(j, i + 1);
  }
  return out;
}
