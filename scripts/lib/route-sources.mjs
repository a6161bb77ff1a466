// Which file defines each operation, for the "Source" column of the README's endpoint table:
// every `defineRoute({ method, path })` in `src/routes/**/*.routes.ts`, keyed `METHOD /path`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** @returns {Record<string, string>} `GET /api/me` → `src/routes/me/me.routes.ts` */
export function routeSources() {
  /** @type {Record<string, string>} */
  const sources = {};
  const files = readdirSync(join(root, 'src', 'routes'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.routes.ts'));
  for (const file of files) {
    const text = readFileSync(join(root, 'src', 'routes', file), 'utf8');
    for (const m of text.matchAll(/defineRoute\(\{\s*method: '(\w+)',\s*path: '([^']+)'/g)) {
      sources[`${m[1].toUpperCase()} ${m[2]}`] = relative(root, join(root, 'src', 'routes', file));
    }
  }
  return sources;
}
