/**
 * The right to erasure (DPDP Act 2023 §12(3)): `DELETE /api/dsr/erasure` records the request
 * with an `erasure` job (src/services/jobs/) and queues it; the job runs `runErasureCascade`,
 * which deletes every row about the person in every table and leaves only the
 * `erasure_receipts` row (request id, state, counts, times: no personal data) and the done job
 * (kind, request id, times). A lost message or a crash mid-cascade is recovered by the sweeper
 * (docs/reliability.md).
 *
 * **Resumable and idempotent.** The cascade is a fixed list of steps, run in dependency order
 * (children before parents, so no foreign-key cascade ever fires on someone else's rows). Each
 * step deletes (or re-links) in chunks, and every chunk is one D1 batch, i.e. one transaction,
 * of two statements: the change, and an update adding SQLite's `changes()` (the rows that
 * change touched) to the step's entry in `erasure_receipts.deleted_counts`. So the counts are
 * exact whatever fails and wherever: a chunk is counted if and only if it happened. A retried or
 * redelivered message starts again at the last step that has an entry (earlier ones are done;
 * that one may be part-done and its predicate simply finds what is left), and a message whose
 * receipt is `completed` is acknowledged without doing anything. Two deliveries running at once
 * are safe for the same reason: each row is deleted, and counted, by exactly one chunk.
 *
 * **Employers.** Briefs, the certificates an employer issued and the ratings they gave are the
 * other people's records too (a candidate's certificate cascades from its brief). They are
 * re-linked to a per-request tombstone account holding no personal data ("Former employer",
 * `erased-<requestId>@invalid`, unusable credentials, disabled), so candidates keep verifiable
 * certificates. Briefs nobody worked on are deleted instead; kept briefs are closed. See
 * docs/data-rights.md.
 */

export { PSEUDONYMISED_LOG_DAYS, purgePseudonymisedLogs } from './pseudonymise';
export {
  backfillErasureJobs,
  ERASURE_JOB,
  type ErasurePayload,
  type ErasureReceiptView,
  ensureErasureJob,
  erasureReceipt,
  requestErasure,
  toReceiptView,
} from './request';
export { runErasureCascade, tombstoneEmail } from './runner';
export { ERASURE_STEPS } from './steps';
