// Starts the Worker with `wrangler dev --local` on its own port and state directory, so a
// benchmark never touches the developer's `npm run dev` data.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runWrangler, spawnWrangler } from '../../scripts/lib/wrangler.mjs';

/**
 * @param {{ port: number; stateDir: string }} options
 * @returns {Promise<{ url: string; stop: () => Promise<void> }>}
 */
export async function startLocalWorker({ port, stateDir }) {
  const persistTo = join(ROOT, stateDir);
  rmSync(persistTo, { recursive: true, force: true });
  await runWrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo], {
    capture: true,
  });
  const child = spawnWrangler(
    [
      'dev',
      '--local',
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--persist-to',
      persistTo,
      '--log-level',
      'error',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'], detached: true, env: { ...process.env, CI: 'true' } },
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/public/agreement-rate`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('wrangler dev did not start within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  };
  return { url, stop };
}
