// What `npm run dev` shows of wrangler's output, and the banner it prints once the Worker is ready.
// wrangler dev prints about a thousand lines before "Ready" (the bindings table twice, warnings that
// do not apply to a local run); a newcomer needs the URL, the accounts and where to look next.
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';

/**
 * Blocks wrangler prints that say nothing useful here, by their first line. Each is dropped with the
 * indented and blank lines that follow it.
 */
const DROPPED_BLOCKS = [
  // Workers AI is remote-only; locally the deterministic engine answers (AI_ENGINE=local), no charges.
  /AI bindings always access remote resources/,
  // The cron's local trigger is in the banner instead.
  /Scheduled Workers are not automatically triggered/,
  /^⎔ (Starting local server|Reloading local server|Connection status updated)/,
  /^\s*$/,
];

/** The bindings table: its heading, then one row per binding (`env.NAME …`). */
const BINDINGS_HEADING =
  /^(Your Worker has access to the following bindings:|Your Worker and resources are simulated locally)/;
const BINDINGS_ROW = /^(Binding\s+Resource|env\.\S+|\s*$)/;

/** Without ANSI colour codes (wrangler colours its warnings even when piped, sometimes). */
const plain = stripVTControlCharacters;

/**
 * Copies wrangler's output line by line, without the blocks above and the bindings table, and calls
 * onReady once, when wrangler says "Ready on …".
 * @param {NodeJS.ReadableStream} input
 * @param {NodeJS.WritableStream} output
 * @param {{ onReady?: () => void }} [options]
 */
export function filterWranglerOutput(input, output, { onReady } = {}) {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  /** @type {'none' | 'block' | 'bindings'} */
  let skipping = 'none';
  let ready = false;
  lines.on('line', (raw) => {
    const line = plain(raw);
    if (skipping === 'bindings') {
      if (BINDINGS_ROW.test(line)) return;
      skipping = 'none';
    } else if (skipping === 'block') {
      if (/^\s/.test(line) || line === '') return;
      skipping = 'none';
    }
    if (BINDINGS_HEADING.test(line)) {
      skipping = 'bindings';
      return;
    }
    if (DROPPED_BLOCKS.some((pattern) => pattern.test(line))) {
      skipping = 'block';
      return;
    }
    output.write(`${raw}\n`);
    if (!ready && /Ready on https?:\/\//.test(line)) {
      ready = true;
      onReady?.();
    }
  });
}

/**
 * The banner printed after "Ready".
 * @param {{ baseUrl: string, accounts: { role: string, email: string, password: string }[],
 *   certificateUrl: string | null, dnsUrl: string | null }} what
 * @returns {string}
 */
export function devBanner({ baseUrl, accounts, certificateUrl, dnsUrl }) {
  const rule = '─'.repeat(72);
  const rows = accounts.map((a) => `    ${a.role.padEnd(9)} ${a.email.padEnd(24)} ${a.password}`);
  return [
    '',
    rule,
    `  Verification Platform is running at ${baseUrl}`,
    '',
    `  Home and verify      ${baseUrl}/   ·   ${baseUrl}/verify`,
    ...(certificateUrl ? [`  Demo certificate     ${certificateUrl}`] : []),
    `  API reference        ${baseUrl}/docs   (contract: ${baseUrl}/openapi.yaml)`,
    `  Health               ${baseUrl}/api/health`,
    '  Demo accounts (sign in at /me, or POST /api/auth/login):',
    ...rows,
    '  Mailed links (sign-up confirmations) are printed in this log as "mail (log transport)".',
    ...(dnsUrl ? [`  DNS double for domain proofs: ${dnsUrl} (docs/local-development.md)`] : []),
    `  Cron (retention, job sweep) by hand: curl ${baseUrl}/cdn-cgi/local/scheduled`,
    '  Walk the whole product end to end: npm run demo   (in another terminal)',
    rule,
    '',
  ].join('\n');
}
