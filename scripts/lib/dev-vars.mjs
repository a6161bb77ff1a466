// Reads the local secrets file (.dev.vars) the way wrangler does, and creates it from
// .dev.vars.example on a fresh clone.
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './wrangler.mjs';

export const DEV_VARS = join(ROOT, '.dev.vars');
export const DEV_VARS_EXAMPLE = join(ROOT, '.dev.vars.example');

// The line grammar of dotenv 16's `parse`, which is what wrangler uses for .dev.vars: parsing
// the same way guarantees the seeded admin password is the one the Worker sees.
const LINE =
  /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/gm;

/**
 * Parses dotenv text: `KEY=value`, `KEY="value"` (with `\n` and `\r` escapes), `KEY='value'`,
 * optional `export `, `#` comments. No variable expansion (wrangler does none for .dev.vars).
 * @param {string} text
 * @returns {Record<string, string>}
 */
export function parseDotenv(text) {
  /** @type {Record<string, string>} */
  const vars = {};
  const lines = text.replace(/\r\n?/g, '\n');
  LINE.lastIndex = 0;
  for (let match = LINE.exec(lines); match !== null; match = LINE.exec(lines)) {
    let value = (match[2] ?? '').trim();
    const quote = value[0];
    value = value.replace(/^(['"`])([\s\S]*)\1$/gm, '$2');
    if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    vars[match[1]] = value;
  }
  return vars;
}

/**
 * Creates .dev.vars from .dev.vars.example when it does not exist yet. Never overwrites.
 * @returns {boolean} true when the file was created
 */
export function ensureDevVars() {
  if (existsSync(DEV_VARS)) return false;
  if (!existsSync(DEV_VARS_EXAMPLE)) {
    throw new Error(`${relative(process.cwd(), DEV_VARS_EXAMPLE)} is missing; cannot create .dev.vars`);
  }
  copyFileSync(DEV_VARS_EXAMPLE, DEV_VARS);
  console.log('Created .dev.vars from .dev.vars.example (local secrets; edit it to change them).');
  return true;
}

/** @returns {Record<string, string>} the variables in .dev.vars */
export function readDevVars() {
  return parseDotenv(readFileSync(DEV_VARS, 'utf8'));
}
