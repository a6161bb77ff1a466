/**
 * Storage limits on submissions. Free signups mean one account must not be able to fill D1
 * (10 GB per database): each submission is bounded in bytes and in stored fingerprints, each
 * candidate in submissions per milestone and per day, and each account in total storage.
 * All five are Worker vars (wrangler.toml) with the defaults below; docs/security.md explains
 * each and `npm run bench` (BENCH_ONLY=storage) measures what a maximal submission adds to D1.
 */

export type StorageLimits = {
  /** Stored content per submission (text, files and commit list as JSON, repository URL), UTF-8 bytes. */
  submissionMaxBytes: number;
  /** Submissions per candidate per milestone (the first and its resubmissions). */
  submissionsPerMilestone: number;
  /** Submissions per candidate in any 24 hours. */
  submissionsPerDay: number;
  /** Total `storage_bytes` of a candidate's submissions. */
  accountStorageQuotaBytes: number;
  /** Fingerprint rows stored per submission (the rest are not stored; see `sampleFingerprints`). */
  fingerprintsPerSubmission: number;
};

export const DEFAULT_STORAGE_LIMITS: StorageLimits = {
  submissionMaxBytes: 256 * 1024,
  submissionsPerMilestone: 5,
  submissionsPerDay: 20,
  accountStorageQuotaBytes: 16 * 1024 * 1024,
  fingerprintsPerSubmission: 2_000,
};

/** The Worker var behind each limit. */
export const STORAGE_LIMIT_VARS = {
  submissionMaxBytes: 'SUBMISSION_MAX_BYTES',
  submissionsPerMilestone: 'SUBMISSIONS_PER_MILESTONE',
  submissionsPerDay: 'SUBMISSIONS_PER_DAY',
  accountStorageQuotaBytes: 'ACCOUNT_STORAGE_QUOTA_BYTES',
  fingerprintsPerSubmission: 'FINGERPRINTS_PER_SUBMISSION',
} as const satisfies Record<keyof StorageLimits, string>;

/** The vars as the Worker's `env` has them (strings; unset or empty means the default). */
export type StorageLimitVars = Partial<
  Record<(typeof STORAGE_LIMIT_VARS)[keyof StorageLimits], string | number>
>;

/**
 * What one stored fingerprint costs in D1, in bytes, as charged to the quota: the row
 * (integer id, hash and position, the 36-character submission id), its entries in the two
 * indexes, and its share of `fingerprint_frequencies`. Set from `npm run bench`'s measurement
 * of a maximal submission (docs/security.md), rounded up.
 */
export const FINGERPRINT_ROW_BYTES = 144;

/**
 * The limits from the Worker's vars: a missing or empty var takes its default; anything else
 * must be a positive integer, or the answer names the var (for a 503, never a silent default).
 */
export function storageLimitsFrom(
  vars: StorageLimitVars,
): { ok: true; limits: StorageLimits } | { ok: false; invalid: string } {
  const limits = { ...DEFAULT_STORAGE_LIMITS };
  for (const [key, name] of Object.entries(STORAGE_LIMIT_VARS) as [
    keyof StorageLimits,
    keyof StorageLimitVars,
  ][]) {
    const raw = vars[name];
    if (raw === undefined || raw === null || raw === '') continue;
    const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (!Number.isSafeInteger(value) || value < 1) return { ok: false, invalid: name };
    limits[key] = value;
  }
  return { ok: true, limits };
}

const encoder = new TextEncoder();
const utf8Bytes = (value: string) => encoder.encode(value).length;

/** The stored size of a submission's content, as D1 holds it (text, JSON columns, URL), in UTF-8 bytes. */
export function submissionContentBytes(input: {
  text?: string | undefined;
  files?: unknown[] | undefined;
  commits?: unknown[] | undefined;
  repositoryUrl?: string | undefined;
}): number {
  return (
    (input.text ? utf8Bytes(input.text) : 0) +
    (input.files ? utf8Bytes(JSON.stringify(input.files)) : 0) +
    (input.commits ? utf8Bytes(JSON.stringify(input.commits)) : 0) +
    (input.repositoryUrl ? utf8Bytes(input.repositoryUrl) : 0)
  );
}

/** What a submission is charged against the account's quota. */
export const storageCost = (contentBytes: number, storedFingerprints: number) =>
  contentBytes + storedFingerprints * FINGERPRINT_ROW_BYTES;

/** Human-readable size for problem details: bytes, KiB or MiB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

export type SubmissionUsage = {
  /** The candidate's submissions to this milestone so far. */
  forMilestone: number;
  /** Their submissions in the last 24 hours, and when the oldest of those was made. */
  lastDay: number;
  oldestInLastDay: Date | null;
  /** Total `storage_bytes` of their submissions. */
  storedBytes: number;
};

export type QuotaRefusal = {
  status: 413 | 429;
  detail: string;
  /** Seconds until waiting helps (the daily limit only). */
  retryAfterSeconds?: number;
};

/**
 * Whether one more submission of `cost` bytes (`contentBytes` of content) is allowed, in the
 * order a candidate can act on: too large, too many resubmissions, too many today, over quota.
 */
export function checkSubmissionQuota(
  limits: StorageLimits,
  usage: SubmissionUsage,
  contentBytes: number,
  cost: number,
  now: Date,
): QuotaRefusal | null {
  if (contentBytes > limits.submissionMaxBytes)
    return {
      status: 413,
      detail: `The submission's content is ${formatBytes(contentBytes)}; the limit is ${formatBytes(limits.submissionMaxBytes)} (${limits.submissionMaxBytes} bytes) per submission, text, files and commit list together.`,
    };
  if (usage.forMilestone >= limits.submissionsPerMilestone)
    return {
      status: 429,
      detail: `This milestone already has ${usage.forMilestone} submissions from you; the limit is ${limits.submissionsPerMilestone} per milestone (the first and its resubmissions).`,
    };
  if (usage.lastDay >= limits.submissionsPerDay) {
    const oldest = usage.oldestInLastDay?.getTime() ?? now.getTime();
    return {
      status: 429,
      detail: `You have made ${usage.lastDay} submissions in the last 24 hours; the limit is ${limits.submissionsPerDay} per 24 hours.`,
      retryAfterSeconds: Math.max(1, Math.ceil((oldest + 24 * 60 * 60 * 1000 - now.getTime()) / 1000)),
    };
  }
  if (usage.storedBytes + cost > limits.accountStorageQuotaBytes)
    return {
      status: 429,
      detail: `This submission would take ${formatBytes(cost)} of storage and your account holds ${formatBytes(usage.storedBytes)}; the storage quota is ${formatBytes(limits.accountStorageQuotaBytes)} (${limits.accountStorageQuotaBytes} bytes) per account.`,
    };
  return null;
}
