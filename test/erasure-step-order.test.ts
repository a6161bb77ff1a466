/**
 * The erasure cascade resumes an in-flight request at the last step key its receipt recorded
 * (src/services/dsr/erasure/runner.ts). Reordering, renaming or removing a step would make a
 * resumed cascade skip or repeat work, so the order is pinned here: a new step is appended.
 */
import { describe, expect, it } from 'vitest';
import { ERASURE_STEPS } from '../src/services/dsr/erasure';

/** Today's keys, in order. Append new ones; never edit or reorder these. */
const KEYS_IN_ORDER: readonly string[] = [
  'organisation_invitations',
  'audit_log_pseudonymised',
  'fingerprints',
  'fingerprint_shards',
  'employer_ratings',
  'evaluations',
  'certificates',
  'submissions',
  'consent_events',
  'exports',
  'dpo_records_kept',
  'dsr_requests',
  'sessions',
  'email_confirmations',
  'oauth_grants',
  'ward_notice_copies',
  'guardian_requests',
  'consents_given_withdrawn',
  'guardian_requests_unlinked',
  'consents_given_unlinked',
  'api_keys_unlinked',
  'certificates_revoker_unlinked',
  'employer_ratings_reassigned',
  'credentials_resigned',
  'certificates_reassigned',
  'rubrics',
  'milestones',
  'briefs',
  'briefs_reassigned',
  'jobs',
  'users',
];

describe('erasure cascade step order', () => {
  it('keeps every existing step key in its place; new steps go at the end', () => {
    const keys = ERASURE_STEPS.map((s) => s.key);
    expect(keys.length).toBeGreaterThanOrEqual(KEYS_IN_ORDER.length);
    expect(keys.slice(0, KEYS_IN_ORDER.length)).toEqual(KEYS_IN_ORDER);
  });

  it('has no step key twice (a resumed cascade finds its place by key)', () => {
    const keys = ERASURE_STEPS.map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
