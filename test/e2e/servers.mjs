// The processes the end-to-end run needs: the Worker under `wrangler dev --local` (its own port
// and state directory, so the developer's `npm run dev` data is never touched) and a "third-party"
// site on another origin that embeds the leaderboard the way a partner would.

import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { applyLocalMigrations, ROOT, spawnWrangler } from '../../scripts/lib/wrangler.mjs';

/** A TCP port that is free right now on 127.0.0.1. @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * Starts `wrangler dev --local` on a fresh state directory with the migrations applied (or, with
 * `fresh: false`, on the state a previous run left), and waits until `probe` answers 200.
 * `kill()` ends it at once with SIGKILL, as a crash would; `stop()` shuts it down.
 * @param {{ port: number; inspectorPort: number; stateDir: string; vars?: Record<string, string>; probe?: string; fresh?: boolean; args?: string[] }} o
 * @returns {Promise<{ url: string; pid: number | undefined; stop: () => Promise<void>; kill: () => Promise<void> }>}
 */
export async function startWorker({
  port,
  inspectorPort,
  stateDir,
  vars = {},
  probe = '/openapi.yaml',
  fresh = true,
  args: extraArgs = [],
}) {
  const persistTo = join(ROOT, stateDir);
  if (fresh) {
    rmSync(persistTo, { recursive: true, force: true });
    await applyLocalMigrations(persistTo, { capture: true });
  }
  const args = [
    'dev',
    '--local',
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--inspector-port',
    String(inspectorPort),
    '--persist-to',
    persistTo,
    '--log-level',
    'error',
    '--show-interactive-dev-session=false',
    ...extraArgs,
  ];
  for (const [k, v] of Object.entries(vars)) args.push('--var', `${k}:${v}`);
  // Its own process group, so stop() ends wrangler, workerd and esbuild together.
  const child = spawnWrangler(args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
    env: { ...process.env, CI: 'true' },
  });
  const killGroup = (/** @type {NodeJS.Signals} */ signal) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  // Even if the run dies without calling stop() (an uncaught error, process.exit), take the group with it.
  const onExit = () => killGroup('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    if (child.exitCode !== null || child.signalCode !== null) return killGroup('SIGKILL');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    killGroup('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    killGroup('SIGKILL'); // whatever is left of the group
  };
  const kill = async () => {
    process.off('exit', onExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    killGroup('SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
      try {
        const res = await fetch(`${url}${probe}`);
        await res.arrayBuffer();
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('wrangler dev did not start within 90 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, pid: child.pid, stop, kill };
}

/**
 * A partner's site on another origin (`http://localhost:<port>`, a different site from the
 * Worker's `http://127.0.0.1:<port>`): `/` pastes the README's one-line snippet twice (light and
 * dark themes); `/frame?src=/path` frames a page of the Worker with a hand-written iframe.
 * @param {{ port: number; workerUrl: string; domain: string }} o
 * @returns {Promise<{ url: string; stop: () => Promise<void> }>}
 */
export async function startThirdParty({ port, workerUrl, domain }) {
  const page = (/** @type {string} */ body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Partner site</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:24px;background:#fafafa;color:#222}section{margin-bottom:24px}</style>
</head><body><main><h1>Partner Bootcamp</h1>${body}</main></body></html>`;
  const snippet = (/** @type {string} */ theme) =>
    `<script src="${workerUrl}/embed/leaderboard.js" data-domain="${domain}" data-limit="10" data-theme="${theme}" data-title="Top ${domain} candidates (${theme})" async></script>`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://partner.invalid');
    const src = url.searchParams.get('src') ?? '';
    let html = null;
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (url.pathname === '/') {
      html = page(
        `<section id="light"><h2>Our graduates</h2>${snippet('light')}</section>` +
          `<section id="dark"><h2>Dark theme</h2>${snippet('dark')}</section>`,
      );
    } else if (url.pathname === '/frame' && src.startsWith('/')) {
      const framed = new URL(src, workerUrl).href.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
      html = page(`<iframe title="Framed page" src="${framed}" width="640" height="420"></iframe>`);
    }
    if (html === null) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  return {
    url: `http://localhost:${port}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
