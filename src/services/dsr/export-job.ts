/**
 * Exports of any size (issue 18). A streamed export reads D1 once per page inside one request,
 * and a Worker invocation may issue at most 1,000 D1 queries: about 9,000 submissions. Larger
 * histories are exported by a job (kind `export`): `GET /api/dsr/access` answers 202 with the
 * tracked `access` request; the job builds the same ZIP with larger pages and writes it to R2
 * (`EXPORTS`) as a multipart upload in parts of `PART_BYTES`; the person downloads it from
 * `GET /api/dsr/access/{requestId}/download` (their session, their request only) until the
 * cron deletes it 7 days after it was built.
 */
import { and, count, eq, exists, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { auditLog, dsrRequests, employerRatings, jobs, submissions } from '../../db/schema';
import type { SessionUser } from '../../lib/principals';
import { ProblemError } from '../../lib/problem';
import { auditInsert } from '../audit';
import { dispatchJobs, jobFor, jobInsert, retryJob } from '../jobs/jobs';
import { grantsOf } from '../portability/grants';
import { archive, type ExportPages } from './access-export';
import { completeRequest, type DsrRequestView, requestInsert, toRequestView } from './requests';

export const EXPORT_JOB = 'export';
export type ExportPayload = { requestId: string; userId: string };

/** Above this many rows (submissions, ratings given, audit entries) the export runs as a job. */
export const EXPORT_SYNC_MAX_ROWS = 2_000;
/** How long a built export stays downloadable. */
export const EXPORT_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** R2 multipart parts must be at least 5 MiB (except the last). */
export const PART_BYTES = 5 * 1024 * 1024;
/**
 * The job's pages: 100 submissions (at most 256 KB of content each, so ≤ 26 MB in memory) and
 * 1,000 other rows per query, so 20,000 submissions take about 230 queries of the 1,000 allowed.
 */
export const JOB_PAGES: ExportPages = { page: 1_000, submissionPage: 100 };

export const exportObjectKey = (requestId: string) => `exports/${requestId}.zip`;

/** How many rows the person's export would read from the largest tables. */
export async function exportRowCount(db: Database, userId: string): Promise<number> {
  const [[own], [rated], [audited]] = await Promise.all([
    db.select({ n: count() }).from(submissions).where(eq(submissions.candidateId, userId)),
    db.select({ n: count() }).from(employerRatings).where(eq(employerRatings.employerId, userId)),
    db.select({ n: count() }).from(auditLog).where(eq(auditLog.actorId, userId)),
  ]);
  return (own?.n ?? 0) + (rated?.n ?? 0) + (audited?.n ?? 0);
}

/** Records the `access` request (in progress) with its audit entry and its `export` job, together. */
export async function queueAccessExport(
  db: Database,
  env: Pick<Env, 'JOBS_QUEUE' | 'EXPORTS'>,
  user: SessionUser,
  now = new Date(),
): Promise<DsrRequestView> {
  if (!env.EXPORTS)
    throw new ProblemError('not-configured', 'Large exports need the EXPORTS R2 bucket, which is not bound.');
  // One build at a time per person: while one is in progress, asking again answers that request
  // (its Location) instead of queueing another full build of the same data.
  const [building] = await db
    .select()
    .from(dsrRequests)
    .where(
      and(
        eq(dsrRequests.userId, user.id),
        eq(dsrRequests.kind, 'access'),
        eq(dsrRequests.state, 'in_progress'),
        // A build: an export streamed in its own response (no job) whose download was cut off
        // stays `in_progress` too, and there is nothing to wait for.
        exists(
          db
            .select({ id: jobs.id })
            .from(jobs)
            .where(and(eq(jobs.kind, EXPORT_JOB), eq(jobs.ref, dsrRequests.id))),
        ),
      ),
    )
    .limit(1);
  if (building) {
    // A build that stalled (its job dead-lettered or past its deadline) would otherwise answer
    // every later ask with a request that never completes: asking again retries it, as an
    // administrator's retry would (audited, with the person as the actor).
    const job = await jobFor(db, EXPORT_JOB, building.id);
    if (job?.state === 'stalled')
      await retryJob(db, env, user.id, job.id, now).catch((err) => {
        if (!(err instanceof ProblemError)) throw err; // retried meanwhile by someone else
      });
    return toRequestView(building);
  }
  const requestId = crypto.randomUUID();
  const jobId = crypto.randomUUID();
  const [inserted] = await db.batch([
    requestInsert(db, { id: requestId, userId: user.id, kind: 'access', state: 'in_progress' }, now),
    auditInsert(db, {
      actorId: user.id,
      action: 'dsr.access',
      targetType: 'dsr_request',
      targetId: requestId,
    }),
    jobInsert(
      db,
      {
        id: jobId,
        kind: EXPORT_JOB,
        payload: { requestId, userId: user.id } satisfies ExportPayload,
        ref: requestId,
        subjectId: user.id,
      },
      now,
    ),
  ]);
  await dispatchJobs(db, env, [jobId], now);
  return toRequestView(inserted[0] as Parameters<typeof toRequestView>[0]);
}

/**
 * The job: builds the archive into R2 as a multipart upload. Idempotent: an export already in
 * R2 only completes the request; a run that fails part-way aborts its upload and the retry
 * starts again.
 */
export async function buildExport(
  db: Database,
  env: Env,
  { requestId, userId }: ExportPayload,
  now: Date,
): Promise<void> {
  const key = exportObjectKey(requestId);
  if (await env.EXPORTS.head(key)) {
    await completeRequest(db, requestId, now);
    return;
  }
  const [request] = await db.select().from(dsrRequests).where(eq(dsrRequests.id, requestId)).limit(1);
  if (!request || request.userId !== userId) return; // erased meanwhile: nothing to build
  const upload = await env.EXPORTS.createMultipartUpload(key, {
    httpMetadata: { contentType: 'application/zip' },
    customMetadata: { requestId, builtAt: String(now.getTime()) },
  });
  try {
    const parts: R2UploadedPart[] = [];
    // R2 takes parts of one size (the last may be smaller): every part but the last is exactly
    // PART_BYTES, cut across the archive's chunks.
    const buffered: Uint8Array[] = [];
    let size = 0;
    const flush = async (bytes: number) => {
      const body = new Uint8Array(bytes);
      let offset = 0;
      while (offset < bytes) {
        const b = buffered[0]!;
        const take = Math.min(b.length, bytes - offset);
        body.set(take === b.length ? b : b.subarray(0, take), offset);
        offset += take;
        if (take === b.length) buffered.shift();
        else buffered[0] = b.subarray(take);
      }
      size -= bytes;
      parts.push(await upload.uploadPart(parts.length + 1, body));
    };
    for await (const chunk of archive(
      db,
      env.PUBLIC_BASE_URL,
      { id: userId, sessionId: '' },
      requestId,
      now,
      {
        pages: JOB_PAGES,
        completeAtEnd: false,
        oauthGrants: await grantsOf(env, userId),
      },
    )) {
      buffered.push(chunk);
      size += chunk.length;
      while (size >= PART_BYTES) await flush(PART_BYTES);
    }
    if (size > 0 || parts.length === 0) await flush(size);
    await upload.complete(parts);
  } catch (err) {
    await upload.abort().catch(() => undefined);
    throw err;
  }
  // Erased while it was being built: the erasure's `exports` step may have run before this
  // object existed, so the build removes what it wrote.
  const [still] = await db
    .select({ id: dsrRequests.id })
    .from(dsrRequests)
    .where(eq(dsrRequests.id, requestId));
  if (!still) {
    await env.EXPORTS.delete(key);
    return;
  }
  await completeRequest(db, requestId, now);
}

/** Deletes the exports of these access requests; returns how many existed. */
export async function deleteExports(bucket: R2Bucket, requestIds: string[]): Promise<number> {
  let existed = 0;
  for (let i = 0; i < requestIds.length; i += EXPORT_DELETE_CHUNK) {
    const keys = requestIds.slice(i, i + EXPORT_DELETE_CHUNK).map(exportObjectKey);
    const heads = await Promise.all(keys.map((k) => bucket.head(k)));
    const present = keys.filter((_, j) => heads[j] !== null);
    if (present.length > 0) await bucket.delete(present);
    existed += present.length;
  }
  return existed;
}

/** Keys per R2 delete (its limit is 1,000; heads go in parallel, so fewer). */
const EXPORT_DELETE_CHUNK = 50;

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The built archive of the caller's own `access` request, or a problem that says what really
 * happened to it: an export streamed in the response to `GET /api/dsr/access` was never stored
 * (404); a background build still running (409) or stopped after failing (409, asking again
 * retries it); a built one past its 7 days (404, expired) or deleted before them (404).
 */
export async function exportDownload(
  db: Database,
  env: Pick<Env, 'EXPORTS'>,
  userId: string,
  requestId: string,
  now = new Date(),
): Promise<{ body: ReadableStream; size: number; filename: string }> {
  const [request] = await db
    .select()
    .from(dsrRequests)
    .where(and(eq(dsrRequests.id, requestId), eq(dsrRequests.userId, userId), eq(dsrRequests.kind, 'access')))
    .limit(1);
  if (!request) throw new ProblemError('not-found', 'No export request of yours has this id.');
  // Only a background build has a job; a smaller export was the answer to its request.
  const job = await jobFor(db, EXPORT_JOB, requestId);
  if (!job)
    throw new ProblemError(
      'not-found',
      `This export was never stored: it was small enough to be sent as the response to GET /api/dsr/access on ${day(request.createdAt)}` +
        (request.state === 'completed'
          ? ', and the platform keeps no copy.'
          : ', that download has not finished, and the platform keeps no copy.') +
        ' Ask for a new one with GET /api/dsr/access.',
    );
  if (request.state !== 'completed') {
    if (job.state === 'stalled')
      throw new ProblemError(
        'conflict',
        'Building this export failed and stopped; ask again with GET /api/dsr/access, which retries it, then download it here.',
      );
    throw new ProblemError('conflict', 'The export is still being built; try again in a minute.');
  }
  const object = env.EXPORTS ? await env.EXPORTS.get(exportObjectKey(requestId)) : null;
  const builtAt = object ? Number(object.customMetadata?.builtAt ?? object.uploaded.getTime()) : null;
  const completedAt = (request.completedAt ?? request.updatedAt ?? request.createdAt).getTime();
  const expired = (builtAt ?? completedAt) + EXPORT_TTL_MS;
  if (now.getTime() > expired) {
    // Past its 7 days: expired, whether or not the cron has deleted it yet.
    throw new ProblemError(
      'not-found',
      `This export has expired: built on ${day(new Date(builtAt ?? completedAt))}, it was kept for 7 days (until ${day(new Date(expired))}). Ask for a new one with GET /api/dsr/access.`,
    );
  }
  if (!object)
    throw new ProblemError(
      'not-found',
      `This export is no longer stored: it was built on ${day(new Date(completedAt))} and deleted before its 7 days were up. Ask for a new one with GET /api/dsr/access.`,
    );
  return {
    body: object.body,
    size: object.size,
    filename: `personal-data-${request.createdAt.toISOString().slice(0, 10)}.zip`,
  };
}

/**
 * Cron: deletes exports built more than 7 days ago, and any export whose access request no
 * longer exists (its person was erased: the backstop of the erasure's own `exports` step).
 */
export async function deleteExpiredExports(
  db: Database,
  env: Pick<Env, 'EXPORTS'>,
  now = new Date(),
): Promise<number> {
  if (!env.EXPORTS) return 0;
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await env.EXPORTS.list({
      prefix: 'exports/',
      include: ['customMetadata'],
      ...(cursor ? { cursor } : {}),
    });
    const expired = page.objects
      .filter(
        (o) => now.getTime() - Number(o.customMetadata?.builtAt ?? o.uploaded.getTime()) > EXPORT_TTL_MS,
      )
      .map((o) => o.key);
    const live = page.objects.map((o) => o.key).filter((k) => !expired.includes(k));
    const requestIds = live.map((k) => k.slice('exports/'.length, -'.zip'.length));
    const known = new Set<string>();
    for (let i = 0; i < requestIds.length; i += 100) {
      const rows = await db
        .select({ id: dsrRequests.id })
        .from(dsrRequests)
        .where(inArray(dsrRequests.id, requestIds.slice(i, i + 100)));
      for (const r of rows) known.add(r.id);
    }
    const orphaned = live.filter((_, j) => !known.has(requestIds[j] as string));
    const gone = [...expired, ...orphaned];
    if (gone.length > 0) await env.EXPORTS.delete(gone);
    deleted += gone.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}
