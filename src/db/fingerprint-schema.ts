import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The schema of one fingerprint corpus shard (a D1 database bound as `FINGERPRINTS_<n>`; see
 * src/services/corpus.ts and docs/scaling.md). Migrations: `npm run db:generate:fingerprints`
 * into migrations-fingerprints/. A shard holds the fingerprints whose hash maps to it, so every
 * query for a hash touches one shard. It has no `submissions` table, so each row carries the
 * submitting candidate's id (a check excludes the candidate's own earlier work).
 */
export const shardFingerprints = sqliteTable(
  'fingerprints',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    hash: integer('hash').notNull(),
    submissionId: text('submission_id').notNull(),
    candidateId: text('candidate_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [index('fingerprints_hash_idx').on(t.hash), index('fingerprints_submission_idx').on(t.submissionId)],
);

/** Document frequency per hash, within the shard that owns the hash (so it is global). */
export const shardFrequencies = sqliteTable('fingerprint_frequencies', {
  hash: integer('hash').primaryKey(),
  submissions: integer('submissions').notNull(),
});
