// Which file defines each operation, for the "Source" column of the README's endpoint table:
// every `defineRoute({ method, path })` in `src/routes/**/*.routes.ts`, keyed `METHOD /path`.
// A route factory (a `.routes.ts` whose paths are `path` or `${path}/…`, e.g. the webhook
// operations) is the source of every surface that passes it a `path: '/api/…'`.
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
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  /** @type {{ method: string, suffix: string, file: string }[]} */
  const factoryRoutes = [];
  /** @type {string[]} */
  const surfaces = [];
  for (const file of files) {
    const text = readFileSync(join(root, 'src', 'routes', file), 'utf8');
    const source = relative(root, join(root, 'src', 'routes', file));
    if (!file.endsWith('.routes.ts')) {
      for (const m of text.matchAll(/\bpath: '(\/api[^']*)',/g)) surfaces.push(m[1]);
      continue;
    }
    for (const m of text.matchAll(/defineRoute\(\{\s*method: '(\w+)',\s*path: '([^']+)'/g)) {
      sources[`${m[1].toUpperCase()} ${m[2]}`] = source;
    }
    for (const m of text.matchAll(/defineRoute\(\{\s*method: '(\w+)',\s*path(?:,|: `\$\{path\}([^`]*)`,)/g)) {
      factoryRoutes.push({ method: m[1].toUpperCase(), suffix: m[2] ?? '', file: source });
    }
  }
  for (const base of surfaces) {
    for (const { method, suffix, file } of factoryRoutes) sources[`${method} ${base}${suffix}`] ??= file;
  }
  return sources;
}
