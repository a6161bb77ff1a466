import { env } from 'cloudflare:test';
import { BlobReader, configure, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../src/lib/principals';
import { runScheduled } from '../src/scheduled';
import { startAccessExport } from '../src/services/dsr/access-export';
import {
  deleteExpiredExports,
  EXPORT_JOB,
  EXPORT_SYNC_MAX_ROWS,
  EXPORT_TTL_MS,
  exportDownload,
  exportObjectKey,
  PART_BYTES,
  queueAccessExport,
} from '../src/services/dsr/export-job';
import { runJob } from '../src/services/jobs/jobs';
import { runErasureJob } from './erasure-run';
import { db, seedBrief, signup } from './harness';
import { as, call, expectProblem } from './helpers';

configure({ useWebWorkers: false });

const SUBMISSIONS = 20_000;

/** Rows straight into D1 in one statement (a recursive CTE), as the workflow would leave them. */
async function seedSubmissions(candidateId: string, briefId: string, milestoneId: string, n: number) {
  const base = Date.now() - 10 * 24 * 60 * 60 * 1000;
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?5)
     INSERT INTO submissions (id, candidate_id, brief_id, milestone_id, text, state, storage_bytes, created_at)
     SELECT lower(hex(randomblob(16))), ?1, ?2, ?3,
            'Submission ' || i || ': my status page polls each service every 30 seconds and shows ' ||
            'outages within a minute, with a history of the last ninety days. ' || hex(randomblob(400)),
            'rated', 200, ?4 + i FROM n`,
  )
    .bind(candidateId, briefId, milestoneId, base, n)
    .run();
}

async function unzip(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const reader = new ZipReader(new BlobReader(new Blob([bytes])));
  const files = new Map<string, Uint8Array>();
  for (const entry of await reader.getEntries()) {
    if (entry.directory) continue;
    files.set(entry.filename, await entry.getData(new Uint8ArrayWriter()));
  }
  await reader.close();
  return files;
}

/** Runs the request's export job here (a queue delivery may have taken it already: then wait for it). */
async function runExportJob(requestId: string) {
  const job = await env.DB.prepare('SELECT id FROM jobs WHERE kind = ? AND ref = ?')
    .bind(EXPORT_JOB, requestId)
    .first<{ id: string }>();
  expect(job).not.toBeNull();
  for (let i = 0; i < 120; i++) {
    const outcome = await runJob(db(), env, job!.id);
    if (outcome === 'done' || outcome === 'skipped') break;
    expect(outcome).toBe('busy');
    await new Promise((r) => setTimeout(r, 500));
  }
  const state = await env.DB.prepare('SELECT state FROM jobs WHERE id = ?')
    .bind(job!.id)
    .first<{ state: string }>();
  expect(state?.state).toBe('done');
}

describe('exports of any size: a job that builds the ZIP in R2', () => {
  it('exports 20,000 submissions: 202 with the tracked request, built in parts, downloaded by the owner only, deleted after 7 days', async () => {
    const [candidate, stranger, employer] = [
      await signup('candidate'),
      await signup('candidate'),
      await signup('employer'),
    ];
    const { briefId, milestoneId } = await seedBrief(employer.id);
    await seedSubmissions(candidate.id, briefId, milestoneId, SUBMISSIONS);
    expect(SUBMISSIONS).toBeGreaterThan(EXPORT_SYNC_MAX_ROWS);

    const res = await call('/api/dsr/access', { headers: as(candidate) });
    expect(res.status).toBe(202);
    const request = await res.json<{ id: string; kind: string; state: string }>();
    expect(request).toMatchObject({ kind: 'access', state: 'in_progress' });
    const location = res.headers.get('location');
    expect(location).toBe(`/api/dsr/access/${request.id}/download`);

    // Not built yet: 409. Someone else's request: 404, as if it did not exist.
    await expectProblem(await call(location!, { headers: as(candidate) }), 409, 'conflict');

    await runExportJob(request.id);
    await expectProblem(await call(location!, { headers: as(stranger) }), 404, 'not-found');

    const download = await call(location!, { headers: as(candidate) });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const bytes = new Uint8Array(await download.arrayBuffer());
    const object = await env.EXPORTS.head(exportObjectKey(request.id));
    expect(object?.size).toBe(bytes.length);
    expect(bytes.length).toBeGreaterThan(PART_BYTES); // more than one multipart part

    const files = await unzip(bytes);
    const submissions = JSON.parse(new TextDecoder().decode(files.get('submissions.json')!)) as {
      id: string;
    }[];
    expect(submissions).toHaveLength(SUBMISSIONS);
    expect(new Set(submissions.map((s) => s.id)).size).toBe(SUBMISSIONS);
    const manifest = JSON.parse(new TextDecoder().decode(files.get('manifest.json')!)) as {
      requestId: string;
      counts: Record<string, number>;
    };
    expect(manifest.requestId).toBe(request.id);
    expect(manifest.counts['submissions.json']).toBe(SUBMISSIONS);

    // The request is completed in the person's list.
    const list = await (await call('/api/me/dsr-requests', { headers: as(candidate) })).json<{
      items: { id: string; state: string }[];
    }>();
    expect(list.items.find((r) => r.id === request.id)?.state).toBe('completed');

    // A second run of the job (a redelivery) changes nothing.
    const job = await env.DB.prepare('SELECT id FROM jobs WHERE ref = ?')
      .bind(request.id)
      .first<{ id: string }>();
    expect(await runJob(db(), env, job!.id)).toBe('skipped');

    // Kept for 7 days, then deleted by the cron; the download then answers 404.
    expect(await deleteExpiredExports(db(), env, new Date(Date.now() + EXPORT_TTL_MS - 60_000))).toBe(0);
    expect(await env.EXPORTS.head(exportObjectKey(request.id))).not.toBeNull();
    const later = new Date(Date.now() + EXPORT_TTL_MS + 60_000);
    await runScheduled(env as unknown as Env, later);
    expect(await env.EXPORTS.head(exportObjectKey(request.id))).toBeNull();
    await expect(exportDownload(db(), env, candidate.id, request.id, later)).rejects.toMatchObject({
      type: 'not-found',
      message: expect.stringMatching(
        /^This export has expired: built on \d{4}-\d{2}-\d{2}, it was kept for 7 days/,
      ),
    });
  }, 120_000);

  it("erasure deletes the person's built exports from R2, not anyone else's; the cron deletes an export whose request is gone", async () => {
    const [person, other, employer] = [
      await signup('candidate'),
      await signup('candidate'),
      await signup('employer'),
    ];
    const { briefId, milestoneId } = await seedBrief(employer.id);
    const built: Record<string, string> = {};
    for (const who of [person, other]) {
      await seedSubmissions(who.id, briefId, milestoneId, EXPORT_SYNC_MAX_ROWS + 1);
      const res = await call('/api/dsr/access', { headers: as(who) });
      expect(res.status).toBe(202);
      const { id } = await res.json<{ id: string }>();
      await runExportJob(id);
      expect(await env.EXPORTS.head(exportObjectKey(id))).not.toBeNull();
      built[who.id] = id;
    }

    const erasure = await call('/api/dsr/erasure', { method: 'DELETE', headers: as(person) });
    expect(erasure.status).toBe(202);
    const { requestId } = await erasure.json<{ requestId: string }>();
    const receipt = await runErasureJob(requestId);
    expect(receipt.state).toBe('completed');
    expect(receipt.deletedCounts.exports).toBe(1);
    expect(await env.EXPORTS.head(exportObjectKey(built[person.id]!))).toBeNull();
    expect(await env.EXPORTS.head(exportObjectKey(built[other.id]!))).not.toBeNull();

    // An export whose access request no longer exists (say, built while its person was erased)
    // is deleted by the next cron even though it is fresh; the other person's stays.
    const orphan = exportObjectKey(crypto.randomUUID());
    await env.EXPORTS.put(orphan, 'PK', { customMetadata: { builtAt: String(Date.now()) } });
    expect(await deleteExpiredExports(db(), env, new Date())).toBe(1);
    expect(await env.EXPORTS.head(orphan)).toBeNull();
    expect(await env.EXPORTS.head(exportObjectKey(built[other.id]!))).not.toBeNull();
  }, 120_000);

  it('asking again while an export is being built answers that request, not another build; once built, a new one', async () => {
    const [person, employer] = [await signup('candidate'), await signup('employer')];
    const { briefId, milestoneId } = await seedBrief(employer.id);
    await seedSubmissions(person.id, briefId, milestoneId, EXPORT_SYNC_MAX_ROWS + 1);
    const ask = async () => {
      const res = await call('/api/dsr/access', { headers: as(person) });
      expect(res.status).toBe(202);
      return { id: (await res.json<{ id: string }>()).id, location: res.headers.get('location') };
    };
    // The first build is queued with its delivery held back, so that the test Worker's own queue
    // consumer cannot build it before the test stalls it below (it did, one full run in a few).
    const held = { send: async () => {}, sendBatch: async () => {} } as unknown as Queue;
    const user = {
      id: person.id,
      email: person.email,
      name: 'Test Person',
      role: 'candidate' as const,
      organisationId: null,
      dateOfBirth: null,
      sessionId: 'x',
      signedInAt: new Date(),
    };
    const queued = await queueAccessExport(db(), { ...env, JOBS_QUEUE: held }, user);
    const first = { id: queued.id, location: `/api/dsr/access/${queued.id}/download` };
    const again = await ask();
    expect(again).toEqual(first);
    const jobs = await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'export' AND ref = ?")
      .bind(first.id)
      .first<{ n: number }>();
    expect(jobs?.n).toBe(1);
    // A build that stopped after failing says so (409), and asking again retries it.
    await env.DB.prepare("UPDATE jobs SET state = 'stalled' WHERE kind = 'export' AND ref = ?")
      .bind(first.id)
      .run();
    const stalled = await expectProblem(
      await call(first.location!, { headers: as(person) }),
      409,
      'conflict',
    );
    expect(stalled.detail).toMatch(/^Building this export failed and stopped/);
    expect((await ask()).id).toBe(first.id);
    await runExportJob(first.id);
    const fresh = await ask();
    expect(fresh.id).not.toBe(first.id); // built: a fresh export reflects the data now
    // A built export deleted before its 7 days were up is not called expired.
    await env.EXPORTS.delete(exportObjectKey(first.id));
    const gone = await expectProblem(await call(first.location!, { headers: as(person) }), 404, 'not-found');
    expect(gone.detail).toMatch(
      /^This export is no longer stored: it was built on \d{4}-\d{2}-\d{2} and deleted before its 7 days were up/,
    );
    expect(gone.detail).not.toContain('expired');
    // The fresh export's build is not left running into the next test (the queue consumer shares
    // this workerd): an inline export streamed while it ran hung once in a full run.
    await runExportJob(fresh.id);
  }, 120_000);

  it('keeps a small export synchronous; its request id downloads nothing and says it was never stored, not that it expired', async () => {
    const candidate = await signup('candidate');
    const res = await call('/api/dsr/access', { headers: as(candidate) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    await res.arrayBuffer();
    const list = await (await call('/api/me/dsr-requests', { headers: as(candidate) })).json<{
      items: { id: string; kind: string; state: string }[];
    }>();
    const inline = list.items.find((r) => r.kind === 'access');
    expect(inline?.state).toBe('completed');
    const problem = await expectProblem(
      await call(`/api/dsr/access/${inline!.id}/download`, { headers: as(candidate) }),
      404,
      'not-found',
    );
    expect(problem.detail).toMatch(
      /^This export was never stored: it was small enough to be sent as the response to GET \/api\/dsr\/access on \d{4}-\d{2}-\d{2}, and the platform keeps no copy/,
    );
    expect(problem.detail).not.toContain('expired');
  });

  it('an inline export whose download was cut off is not "being built", and does not hold back a background build', async () => {
    const [person, employer] = [await signup('candidate'), await signup('employer')];
    const cut = await startAccessExport(db(), env, {
      ...person,
      sessionId: 'test',
    } as unknown as SessionUser);
    await cut.body.cancel();
    const problem = await expectProblem(
      await call(`/api/dsr/access/${cut.requestId}/download`, { headers: as(person) }),
      404,
      'not-found',
    );
    expect(problem.detail).toContain('that download has not finished, and the platform keeps no copy');
    // Grown past the inline size, the person's next ask is a background build of its own.
    const { briefId, milestoneId } = await seedBrief(employer.id);
    await seedSubmissions(person.id, briefId, milestoneId, EXPORT_SYNC_MAX_ROWS + 1);
    const res = await call('/api/dsr/access', { headers: as(person) });
    expect(res.status).toBe(202);
    const built = await res.json<{ id: string }>();
    expect(built.id).not.toBe(cut.requestId);
    await runExportJob(built.id);
    expect((await call(`/api/dsr/access/${built.id}/download`, { headers: as(person) })).status).toBe(200);
  }, 120_000);
});
