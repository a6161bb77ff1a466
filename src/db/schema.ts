/**
 * The single source of every D1 table. Migrations in `migrations/` are generated from this
 * file by drizzle-kit (`npm run db:generate`); never edit a generated migration by hand.
 *
 * Conventions:
 * - ids are random UUIDs (text), except high-volume fingerprint rows (integer rowid);
 * - times are integer milliseconds since the epoch (`mode: 'timestamp_ms'`);
 * - structured values that are always read whole (tasks, rubric criteria, commit lists) are
 *   JSON text; anything the product filters or joins on is a real column with an index;
 * - every row that is "about a person" reaches that person through a foreign key, so the
 *   erasure cascade can find it (see docs/data-model.md).
 */
import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { CONSENT_PURPOSES, type ConsentPurpose } from '../domain/consent-purposes';
import type { CommitRecord } from '../domain/integrity/vcs';
import type { RubricCriterion } from '../domain/pillars/types';

const id = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
const createdAt = () =>
  integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const ROLES = ['candidate', 'employer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ORGANISATION_VERIFICATION = [
  'unverified',
  'pending',
  'verified',
  'rejected',
  'suspended',
] as const;
export type OrganisationVerification = (typeof ORGANISATION_VERIFICATION)[number];

/**
 * Who issues certificates. Every employer belongs to one; briefs, ratings and certificates
 * belong to it, and only a `verified` organisation's certificates are publicly valid.
 */
export const organisations = sqliteTable(
  'organisations',
  {
    id: id(),
    name: text('name').notNull(),
    websiteUrl: text('website_url'),
    /** Domains the organisation claims (lower-case); verified ones are in `verifiedDomain`. */
    domains: text('domains', { mode: 'json' }).$type<string[]>().notNull(),
    verification: text('verification', { enum: ORGANISATION_VERIFICATION }).notNull().default('unverified'),
    /** `dns` (TXT proof) or `admin` (review), once verified. */
    verificationMethod: text('verification_method', { enum: ['dns', 'admin'] }),
    verifiedDomain: text('verified_domain'),
    /** The admin's reason for the last review decision (verified, rejected, suspended). */
    verificationReason: text('verification_reason'),
    /** The value to publish at `_vp-verification.<domain>`; random, per organisation. */
    dnsToken: text('dns_token'),
    /** When the current verification was made (reset by each re-verification); null before any. */
    verifiedAt: integer('verified_at', { mode: 'timestamp_ms' }),
    /**
     * `organisationNameKey(name)`, written with every name and every verification: the unique index
     * below makes two verified organisations under one key impossible, however their requests
     * interleave. Null on rows not written since the column was added
     * (docs/decisions/0026-organisation-verification-under-concurrency.md).
     */
    nameKey: text('name_key'),
    /**
     * A verified organisation's rename, waiting for an admin's review (src/services/organisation-renames.ts):
     * until it is approved the organisation, its profile and every credential keep `name`.
     */
    pendingName: text('pending_name'),
    pendingNameAt: integer('pending_name_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('organisations_verification_idx').on(t.verification, t.createdAt),
    index('organisations_pending_name_idx').on(t.pendingNameAt).where(sql`pending_name is not null`),
    uniqueIndex('organisations_verified_name_key_idx').on(t.nameKey).where(sql`verification = 'verified'`),
  ],
);

export const users = sqliteTable(
  'users',
  {
    id: id(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: ROLES }).notNull(),
    /** Shown on the leaderboard instead of `name` when set. */
    publicAlias: text('public_alias'),
    /** PBKDF2-SHA256 derived key, base64. */
    passwordHash: text('password_hash').notNull(),
    /** Per-user random salt, base64. */
    passwordSalt: text('password_salt').notNull(),
    passwordIterations: integer('password_iterations').notNull(),
    disabledAt: integer('disabled_at', { mode: 'timestamp_ms' }),
    /** Employers only: the organisation they act for. */
    organisationId: text('organisation_id').references(() => organisations.id, { onDelete: 'set null' }),
    /** The last sign-in (signup counts): the start of the retention period (src/services/retention.ts). */
    lastLoginAt: integer('last_login_at', { mode: 'timestamp_ms' }),
    /** When the 48-hour notice of erasure for inactivity was given (Rule 8(2)); null after a sign-in. */
    retentionNoticeAt: integer('retention_notice_at', { mode: 'timestamp_ms' }),
    /**
     * ISO date (`YYYY-MM-DD`), required at signup since issue 19 (DPDP §9): under 18 on the
     * service's clock, the person is a child (src/domain/age.ts). Null only for accounts made
     * before then (treated as adults, and unable to act as a guardian) and the admin.
     */
    dateOfBirth: text('date_of_birth'),
    /**
     * The holder's random id in their credentials (`credentialSubject.id` = `urn:uuid:<this>`),
     * set at their first certificate. Binds their credentials to one holder without saying who;
     * erased with the account, after which it names nobody.
     */
    credentialSubjectId: text('credential_subject_id'),
    /**
     * Set while the holder asks for an `identifier` in their credentials (OB 3.0 IdentityObject: a
     * salted SHA-256 of their email, which wallets match): the salt. Null: no identifier.
     */
    credentialIdentitySalt: text('credential_identity_salt'),
    /**
     * When the person proved they receive mail at `email` (a confirmation link,
     * src/services/email-confirmations.ts); null until then. An unconfirmed account cannot act
     * for someone else (approve a guardian request), join an organisation, prove a domain, get a
     * ward's notices, or change its email.
     */
    emailConfirmedAt: integer('email_confirmed_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_organisation_idx').on(t.organisationId),
  ],
);

/** How a second recruiter joins: a member invites an email address; the token is shown once. */
export const organisationInvitations = sqliteTable(
  'organisation_invitations',
  {
    id: id(),
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    /** Lower-cased; only a signup with this address can use the token. */
    email: text('email').notNull(),
    /** SHA-256 of the invitation token, hex. */
    tokenHash: text('token_hash').notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    acceptedAt: integer('accepted_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('organisation_invitations_token_unique').on(t.tokenHash),
    index('organisation_invitations_organisation_idx').on(t.organisationId),
    index('organisation_invitations_invited_by_idx').on(t.invitedBy),
  ],
);

export const EMAIL_CONFIRMATION_PURPOSES = ['signup', 'change'] as const;

/**
 * Links that confirm an email address (src/services/email-confirmations.ts): `signup` confirms
 * the account's address (and joins the organisation of `invitationId`), `change` makes `email` the
 * account's address once confirmed there. The token is never stored: it is an HMAC of the row's id
 * under a key derived from a secret, recomputed to send the mail; only its SHA-256 is kept. Used
 * once, for 24 hours. Deleted with the account.
 */
export const emailConfirmations = sqliteTable(
  'email_confirmations',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lower-cased: the address the link is sent to and confirms. */
    email: text('email').notNull(),
    purpose: text('purpose', { enum: EMAIL_CONFIRMATION_PURPOSES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** A signup by invitation: the invitation accepted when the address is confirmed. */
    invitationId: text('invitation_id').references(() => organisationInvitations.id, {
      onDelete: 'set null',
    }),
    /** An email correction: its `correction` request, completed when the new address is confirmed. */
    requestId: text('request_id'),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('email_confirmations_token_unique').on(t.tokenHash),
    index('email_confirmations_user_idx').on(t.userId, t.createdAt),
    index('email_confirmations_invitation_idx').on(t.invitationId),
  ],
);

export const sessions = sqliteTable(
  'sessions',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the cookie token, hex. The token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_unique').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

export const API_KEY_SCOPES = [
  'playbooks:generate',
  'integrity:check',
  'rubrics:generate',
  'webhooks:manage',
  'credentials:verify',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: id(),
    name: text('name').notNull(),
    /** The first characters of the key (e.g. `vpk_live_AbC1`), safe to show in listings. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the full key, hex. */
    keyHash: text('key_hash').notNull(),
    scopes: text('scopes', { mode: 'json' }).$type<ApiKeyScope[]>().notNull(),
    organisationId: text('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    /** After this the key answers 401 (`expired`); null: never expires. */
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    /** A per-key limit per minute below the default (600); null: the default. */
    ratelimitPerMinute: integer('ratelimit_per_minute'),
    /** The secret a roll replaced (SHA-256), valid until `previousKeyExpiresAt` (the grace period). */
    previousKeyHash: text('previous_key_hash'),
    previousKeyExpiresAt: integer('previous_key_expires_at', { mode: 'timestamp_ms' }),
    rolledAt: integer('rolled_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_unique').on(t.keyHash),
    index('api_keys_previous_key_hash_idx').on(t.previousKeyHash),
  ],
);

/**
 * Requests per API key per UTC day by outcome, for the usage reports (90 days). Counted in the
 * key's rate-limiter Durable Object and written here in batches by its alarm (never a write per
 * request); `serverError` (5xx) is kept apart so our failures never count against the partner.
 */
export const apiKeyUsage = sqliteTable(
  'api_key_usage',
  {
    apiKeyId: text('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** UTC day, `YYYY-MM-DD`. */
    day: text('day').notNull(),
    success: integer('success').notNull().default(0),
    clientError: integer('client_error').notNull().default(0),
    rateLimited: integer('rate_limited').notNull().default(0),
    serverError: integer('server_error').notNull().default(0),
  },
  (t) => [uniqueIndex('api_key_usage_key_day_unique').on(t.apiKeyId, t.day)],
);

/**
 * `Idempotency-Key` records (draft-ietf-httpapi-idempotency-key-header): one per (caller, key),
 * kept 24 hours. `caller` is `apikey:<id>` or `user:<id>`; the row also links the key or the
 * user, so erasing the person (or deleting the key) deletes it.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    caller: text('caller').notNull(),
    /** SHA-256 of the Idempotency-Key, never the key (it unlocks `body`). */
    key: text('key').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    apiKeyId: text('api_key_id').references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** SHA-256 of method, path and body: the same key with another request is refused (422). */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is in flight. */
    status: integer('status'),
    /** The response headers worth replaying (content type, location…), JSON. */
    headers: text('headers', { mode: 'json' }).$type<Record<string, string>>(),
    /** The response body, AES-GCM-encrypted with a key derived from the Idempotency-Key (src/middleware/idempotency.ts). */
    body: text('body'),
    /** While in flight: when the claim is considered abandoned (the Worker died mid-request). */
    lockedUntil: integer('locked_until', { mode: 'timestamp_ms' }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_caller_key_unique').on(t.caller, t.key),
    index('idempotency_keys_expires_idx').on(t.expiresAt),
    index('idempotency_keys_user_idx').on(t.userId),
    index('idempotency_keys_api_key_idx').on(t.apiKeyId),
  ],
);

export const BRIEF_STATES = ['draft', 'published', 'closed'] as const;
export type BriefState = (typeof BRIEF_STATES)[number];

export const briefs = sqliteTable(
  'briefs',
  {
    id: id(),
    /** The person who created the brief. */
    employerId: text('employer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The organisation the brief belongs to: any of its members may manage it. */
    organisationId: text('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    domain: text('domain').notNull(),
    description: text('description').notNull(),
    deliverables: text('deliverables', { mode: 'json' }).$type<string[]>().notNull(),
    successCriteria: text('success_criteria', { mode: 'json' }).$type<string[]>().notNull(),
    durationDays: integer('duration_days').notNull(),
    /** How long its certificates are valid (1–120 months; credentials carry `validUntil`); null: forever. */
    validForMonths: integer('valid_for_months'),
    state: text('state', { enum: BRIEF_STATES }).notNull().default('draft'),
    /** Which engine generated the playbook (`workers-ai` or `local`). */
    playbookEngine: text('playbook_engine'),
    createdAt: createdAt(),
    publishedAt: integer('published_at', { mode: 'timestamp_ms' }),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('briefs_employer_idx').on(t.employerId),
    index('briefs_organisation_idx').on(t.organisationId),
    index('briefs_state_domain_idx').on(t.state, t.domain),
  ],
);

// Column shapes come from the domain that produces them.
export type { RubricCriterion, RubricLevel } from '../domain/pillars/types';

export const rubrics = sqliteTable(
  'rubrics',
  {
    id: id(),
    briefId: text('brief_id')
      .notNull()
      .references(() => briefs.id, { onDelete: 'cascade' }),
    criteria: text('criteria', { mode: 'json' }).$type<RubricCriterion[]>().notNull(),
    /** Minimum weighted score (1–5 scale) for an AI `pass`. */
    passThreshold: integer('pass_threshold').notNull(),
    engine: text('engine').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('rubrics_brief_unique').on(t.briefId)],
);

export const milestones = sqliteTable(
  'milestones',
  {
    id: id(),
    briefId: text('brief_id')
      .notNull()
      .references(() => briefs.id, { onDelete: 'cascade' }),
    /** 1-based order within the playbook. */
    position: integer('position').notNull(),
    day: integer('day').notNull(),
    title: text('title').notNull(),
    tasks: text('tasks', { mode: 'json' }).$type<string[]>().notNull(),
    tutorialLinks: text('tutorial_links', { mode: 'json' }).$type<string[]>().notNull(),
    /** Rating the final milestone `pass` issues the certificate. */
    isFinal: integer('is_final', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [uniqueIndex('milestones_brief_position_unique').on(t.briefId, t.position)],
);

export const SUBMISSION_STATES = ['submitted', 'evaluating', 'evaluated', 'rated'] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];
export type SubmittedFile = { path: string; content: string };
export type SubmittedCommit = CommitRecord;

export const submissions = sqliteTable(
  'submissions',
  {
    id: id(),
    candidateId: text('candidate_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    briefId: text('brief_id')
      .notNull()
      .references(() => briefs.id, { onDelete: 'cascade' }),
    milestoneId: text('milestone_id')
      .notNull()
      .references(() => milestones.id, { onDelete: 'cascade' }),
    text: text('text'),
    files: text('files', { mode: 'json' }).$type<SubmittedFile[]>(),
    /** Stored as given, never fetched by the service. */
    repositoryUrl: text('repository_url'),
    commits: text('commits', { mode: 'json' }).$type<SubmittedCommit[]>(),
    /**
     * What the submission costs the candidate's storage quota, in bytes: its content as stored
     * (UTF-8) plus an allowance per fingerprint row stored for it (src/domain/storage-quota.ts).
     */
    storageBytes: integer('storage_bytes').notNull().default(0),
    state: text('state', { enum: SUBMISSION_STATES }).notNull().default('submitted'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('submissions_candidate_created_idx').on(t.candidateId, t.createdAt),
    index('submissions_brief_created_idx').on(t.briefId, t.createdAt),
    index('submissions_milestone_idx').on(t.milestoneId),
  ],
);

export const EVALUATION_STATES = ['pending', 'completed', 'failed'] as const;
export const VERDICTS = ['pass', 'fail'] as const;
export type Verdict = (typeof VERDICTS)[number];
export type CriterionScore = { criterionId: string; score: number; explanation: string };

export const evaluations = sqliteTable(
  'evaluations',
  {
    id: id(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    state: text('state', { enum: EVALUATION_STATES }).notNull().default('pending'),
    /** False when the candidate had not consented to AI evaluation: employer rating only. */
    aiEvaluated: integer('ai_evaluated', { mode: 'boolean' }).notNull(),
    criterionScores: text('criterion_scores', { mode: 'json' }).$type<CriterionScore[]>(),
    overallScore: integer('overall_score'),
    verdict: text('verdict', { enum: VERDICTS }),
    engine: text('engine'),
    integrity: text('integrity', { mode: 'json' }).$type<Record<string, unknown>>(),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    completedAt: integer('completed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [uniqueIndex('evaluations_submission_unique').on(t.submissionId)],
);

export const employerRatings = sqliteTable(
  'employer_ratings',
  {
    id: id(),
    /** One rating per evaluation: the unique index is what makes a second rating a 409. */
    evaluationId: text('evaluation_id')
      .notNull()
      .references(() => evaluations.id, { onDelete: 'cascade' }),
    /** The person who rated, for the audit trail; the rating is the organisation's. */
    employerId: text('employer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organisationId: text('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    briefId: text('brief_id')
      .notNull()
      .references(() => briefs.id, { onDelete: 'cascade' }),
    /** Copied from the brief so the per-domain agreement breakdown needs no join. */
    domain: text('domain').notNull(),
    score: integer('score').notNull(),
    verdict: text('verdict', { enum: VERDICTS }).notNull(),
    comment: text('comment'),
    /**
     * The AI verdict at rating time: the other half of the agreement pair. Null when the
     * submission was not AI-evaluated (no consent), and then the rating is not a pair.
     */
    aiVerdict: text('ai_verdict', { enum: VERDICTS }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('employer_ratings_evaluation_unique').on(t.evaluationId),
    // The 90-day agreement window scans ratings by time, globally, per employer and per domain.
    index('employer_ratings_created_idx').on(t.createdAt),
    index('employer_ratings_employer_created_idx').on(t.employerId, t.createdAt),
    index('employer_ratings_domain_created_idx').on(t.domain, t.createdAt),
    index('employer_ratings_brief_idx').on(t.briefId),
    index('employer_ratings_organisation_created_idx').on(t.organisationId, t.createdAt),
  ],
);

/**
 * `pending_issuer`: earned under an organisation that is not verified yet; it has a number but no
 * credential until the organisation is verified, and verifies as not valid until then.
 */
export const CERTIFICATE_STATES = ['pending_issuer', 'active', 'revoked'] as const;
export type CertificateState = (typeof CERTIFICATE_STATES)[number];

export const certificates = sqliteTable(
  'certificates',
  {
    id: id(),
    /** `VP-XXXX-XXXX-XXXX`, Crockford base32 with a check character. */
    certificateNo: text('certificate_no').notNull(),
    holderId: text('holder_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    briefId: text('brief_id')
      .notNull()
      .references(() => briefs.id, { onDelete: 'cascade' }),
    /** The person whose rating completed the certificate (audit trail); the issuer is the organisation. */
    employerId: text('employer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organisationId: text('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    domain: text('domain').notNull(),
    status: text('status', { enum: CERTIFICATE_STATES }).notNull().default('active'),
    /**
     * The issuer's name as signed into the credential (the organisation's name at issue). The
     * verify page shows this, and "now known as …" when the organisation has renamed since.
     */
    signedOrganisationName: text('signed_organisation_name'),
    /**
     * Credentials issued before organisations existed were signed with the rating person's own
     * name; they are re-signed under the organisation when that person corrects their name or is
     * erased, so no credential keeps it.
     */
    signedByPerson: integer('signed_by_person', { mode: 'boolean' }).notNull().default(false),
    /** The signed Open Badges 3.0 credential, VC-JWT compact form; null while `pending_issuer`. */
    credentialJwt: text('credential_jwt'),
    /**
     * The same credential with an embedded Data Integrity proof (eddsa-rdfc-2022), JSON; signed
     * with `credentialJwt` from now on, null for certificates signed before until re-signed.
     */
    credentialDataIntegrity: text('credential_data_integrity'),
    /** When it was earned (the last pass rating); `issuedAt` once signed. */
    earnedAt: integer('earned_at', { mode: 'timestamp_ms' }),
    issuedAt: integer('issued_at', { mode: 'timestamp_ms' }).notNull(),
    /** The credential's `validUntil` (from the brief's `validForMonths` at issue); null: never expires. */
    validUntil: integer('valid_until', { mode: 'timestamp_ms' }),
    /**
     * Bumped by every change a verifier can see (issue, revocation, re-signing). A cached
     * verification is only trusted while the version it was built from is still current.
     */
    version: integer('version').notNull().default(1),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    revokedReason: text('revoked_reason'),
    revokedBy: text('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Whether DigiLocker may fetch this certificate (src/services/digilocker): on unless its holder
     * turned it off (`PATCH /api/me/certificates/{no}/digilocker`).
     */
    digilockerEnabled: integer('digilocker_enabled', { mode: 'boolean' }).notNull().default(true),
  },
  (t) => [
    uniqueIndex('certificates_number_unique').on(t.certificateNo),
    index('certificates_holder_idx').on(t.holderId),
    // Foreign keys that deletions (erasure, brief removal) look up: without these every deleted
    // submission or user scans the whole table for its ON DELETE action.
    index('certificates_submission_idx').on(t.submissionId),
    index('certificates_employer_idx').on(t.employerId),
    index('certificates_brief_idx').on(t.briefId),
    index('certificates_revoked_by_idx').on(t.revokedBy),
    index('certificates_domain_status_idx').on(t.domain, t.status),
    index('certificates_organisation_status_idx').on(t.organisationId, t.status),
    // The verification filter's "recent numbers": certificates issued since the filter was built.
    index('certificates_issued_idx').on(t.issuedAt),
  ],
);

/**
 * Bits of the W3C Bitstring Status Lists (revocation). One row per allocated index, never deleted
 * and never reused: `status_index` is the global index (list = index / 131072). A row is
 * `reserved` when allocated (before the credential is signed; a failed issue leaves it reserved,
 * its bit 0, naming no credential) and `bound` in the issue's own batch. A bound row whose
 * certificate is gone (erasure deletes it: `certificate_id` becomes null) or revoked has its bit
 * set, so a credential out in the world stops verifying when its certificate stops existing.
 */
export const credentialStatuses = sqliteTable(
  'credential_statuses',
  {
    statusIndex: integer('status_index').primaryKey(),
    state: text('state', { enum: ['reserved', 'bound'] })
      .notNull()
      .default('reserved'),
    certificateId: text('certificate_id').references(() => certificates.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('credential_statuses_certificate_unique').on(t.certificateId)],
);

/**
 * Credential offers (OpenID for Verifiable Credential Issuance 1.0, pre-authorized code flow):
 * the holder asks for one for a certificate, a wallet redeems it once within ten minutes. Only
 * hashes of the pre-authorized code, the transaction code and the access token are kept. Deleted
 * with the certificate (and so with the holder).
 */
export const credentialOffers = sqliteTable(
  'credential_offers',
  {
    id: text('id').primaryKey(),
    /** SHA-256 (hex) of the pre-authorized code. */
    codeHash: text('code_hash').notNull(),
    certificateId: text('certificate_id')
      .notNull()
      .references(() => certificates.id, { onDelete: 'cascade' }),
    holderId: text('holder_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the transaction code, when the offer was made with one. */
    txCodeHash: text('tx_code_hash'),
    /** Wrong transaction codes so far; the offer is spent at the limit. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    /** When the code was exchanged for an access token (at most once). */
    redeemedAt: integer('redeemed_at', { mode: 'timestamp_ms' }),
    accessTokenHash: text('access_token_hash'),
    accessExpiresAt: integer('access_expires_at', { mode: 'timestamp_ms' }),
    /** When the credential was issued to the wallet (at most once per offer). */
    issuedAt: integer('issued_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('credential_offers_code_unique').on(t.codeHash),
    uniqueIndex('credential_offers_token_unique').on(t.accessTokenHash),
  ],
);

export const fingerprints = sqliteTable(
  'fingerprints',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Winnowing fingerprint (a k-gram hash). Looked up by value, so it is indexed. */
    hash: integer('hash').notNull(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    /** Offset of the k-gram in the normalised text, for matched-span evidence. */
    position: integer('position').notNull(),
  },
  (t) => [index('fingerprints_hash_idx').on(t.hash), index('fingerprints_submission_idx').on(t.submissionId)],
);

/**
 * How many stored submissions contain each fingerprint (document frequency). A check reads
 * this first and skips very common fingerprints (boilerplate), so the rows it reads are
 * bounded by the checked text, not by the size of the corpus.
 */
export const fingerprintFrequencies = sqliteTable('fingerprint_frequencies', {
  hash: integer('hash').primaryKey(),
  submissions: integer('submissions').notNull(),
});

export { CONSENT_PURPOSES, type ConsentPurpose };

/** Append-only: rows are never updated; the latest row per (user, purpose) is the state. */
export const consentEvents = sqliteTable(
  'consent_events',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: CONSENT_PURPOSES }).notNull(),
    action: text('action', { enum: ['grant', 'revoke'] }).notNull(),
    noticeVersion: text('notice_version').notNull(),
    /** The language of the notice the person read (a code of NOTICE_LANGUAGES), DPDP §5(3). */
    language: text('language').notNull().default('en'),
    /**
     * Who gave it when not the person: their parent or lawful guardian (DPDP §9). Null: the person
     * themselves. A guardian's grant counts only while the person is a child and that guardian's
     * link stands (src/services/consent.ts); it lapses at 18. Not a foreign key: the guardian's
     * erasure replaces their id by `ERASED_GUARDIAN`, never by null (which would read as the
     * child's own grant).
     */
    grantedBy: text('granted_by'),
    createdAt: createdAt(),
  },
  (t) => [index('consent_events_user_purpose_created_idx').on(t.userId, t.purpose, t.createdAt)],
);

export const DSR_KINDS = ['access', 'correction', 'erasure', 'grievance', 'nomination'] as const;
export const DSR_STATES = ['received', 'in_progress', 'completed', 'rejected'] as const;

export const dsrRequests = sqliteTable(
  'dsr_requests',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: DSR_KINDS }).notNull(),
    state: text('state', { enum: DSR_STATES }).notNull().default('received'),
    /** Kind-specific details: grievance subject/description, nominee, corrected fields. */
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
    dueAt: integer('due_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }),
    completedAt: integer('completed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('dsr_requests_user_created_idx').on(t.userId, t.createdAt),
    // The DPO's open queue by due date (`GET /api/admin/dsr-requests?sort=due`, `overdue=true`):
    // only the open requests, a few among the completed exports and corrections.
    index('dsr_requests_open_due_idx').on(t.dueAt, t.id).where(sql`state in ('received', 'in_progress')`),
  ],
);

/**
 * What remains after an erasure: proof that it happened, with no personal data (no user
 * id, email or name). `requestId` is the id returned to the person by `DELETE /api/dsr/erasure`.
 */
export const erasureReceipts = sqliteTable('erasure_receipts', {
  requestId: text('request_id').primaryKey(),
  state: text('state', { enum: ['in_progress', 'completed'] }).notNull(),
  /** Rows deleted per table, filled in as the cascade progresses (lets a retry resume). */
  deletedCounts: text('deleted_counts', { mode: 'json' }).$type<Record<string, number>>().notNull(),
  requestedAt: integer('requested_at', { mode: 'timestamp_ms' }).notNull(),
  completedAt: integer('completed_at', { mode: 'timestamp_ms' }),
});

export const auditLog = sqliteTable(
  'audit_log',
  {
    id: id(),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** The client address (`CF-Connecting-IP`) of the request that used a power; null for other entries. */
    ip: text('ip'),
    /**
     * After the actor's erasure: their keyed pseudonym (`src/domain/pseudonym.ts`), `actor_id` then
     * null. The entry is kept a year from `created_at` (Rule 8(3)), then deleted by the cron.
     */
    actorPseudonym: text('actor_pseudonym'),
    /** When erasure pseudonymised the entry (ids hashed, details and address dropped); null otherwise. */
    pseudonymisedAt: integer('pseudonymised_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_pseudonymised_idx').on(t.pseudonymisedAt, t.createdAt),
    index('audit_log_actor_created_idx').on(t.actorId, t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
    // GET /api/admin/audit-log: newest first, optionally one action.
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_action_created_idx').on(t.action, t.createdAt),
  ],
);

/**
 * States of a deferred job (src/services/jobs/): `pending` (written, maybe enqueued),
 * `running` (a consumer holds the lease until `lease_until`), `done`, `stalled` (gave up: past
 * its deadline, dead-lettered or refused by its handler; an administrator retries it).
 */
export const JOB_STATES = ['pending', 'running', 'done', 'stalled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * The durable record of every piece of work done after a response (a transactional outbox):
 * written in the same D1 batch as the change that asks for it, then enqueued by id. The sweeper
 * (cron) re-enqueues what was never enqueued or whose lease expired. `kind` is free text, checked
 * against the handler registry, so a new kind needs no migration.
 */
export const jobs = sqliteTable(
  'jobs',
  {
    id: id(),
    kind: text('kind').notNull(),
    /** What the handler needs, as JSON. Reduced by the kind's `redact` when the job is done. */
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    /** The record the job acts on (erasure: the request id; evaluation: the evaluation id). */
    ref: text('ref'),
    /** The person the job is about, so their erasure finds it. Cleared when a redacting kind is done. */
    subjectId: text('subject_id'),
    state: text('state', { enum: JOB_STATES }).notNull().default('pending'),
    /** Leases taken so far (each delivery that ran the handler). */
    attempts: integer('attempts').notNull().default(0),
    /** Last time it was handed to the queue; null: never (the send failed or was not reached). */
    enqueuedAt: integer('enqueued_at', { mode: 'timestamp_ms' }),
    /** While `running`: until when the consumer that took it owns it. */
    leaseUntil: integer('lease_until', { mode: 'timestamp_ms' }),
    /** Backoff: the sweeper does not re-enqueue it before this time. */
    availableAt: integer('available_at', { mode: 'timestamp_ms' }).notNull(),
    /** The sweeper marks it `stalled` when it is still not done at this time (the kind's maximum age). */
    deadlineAt: integer('deadline_at', { mode: 'timestamp_ms' }).notNull(),
    /** A legal or promised due date, when the work has one (erasure: the request's due date). */
    dueAt: integer('due_at', { mode: 'timestamp_ms' }),
    /** The last failure, as the database or handler reported it (never the statement's parameters). */
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }),
    completedAt: integer('completed_at', { mode: 'timestamp_ms' }),
    stalledAt: integer('stalled_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('jobs_kind_ref_unique').on(t.kind, t.ref),
    // The sweeper's scan and the health counts.
    index('jobs_state_available_idx').on(t.state, t.availableAt),
    index('jobs_state_kind_idx').on(t.state, t.kind),
    index('jobs_created_idx').on(t.createdAt),
    index('jobs_subject_idx').on(t.subjectId),
  ],
);

/**
 * Who else got something of a person's work (DPDP §11(1)(b)): one row each time a partner's
 * integrity check (`POST /api/v1/integrity/check`) reported a match with one of their
 * submissions, with the partner key (and its name at the time). Deleted with the submission.
 */
export const integrityDisclosures = sqliteTable(
  'integrity_disclosures',
  {
    id: id(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    apiKeyId: text('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    /** The partner key's name when the check ran (keys can be revoked and renamed). */
    partner: text('partner').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('integrity_disclosures_submission_idx').on(t.submissionId, t.createdAt)],
);

/**
 * The Data Protection Officer's records of an erased person's grievances, nominations and
 * corrections (what was asked, when, when it was due and answered, and the outcome), kept a
 * year without identifying them (Rule 8(3)): `id` and `subject_pseudonym` are keyed hashes of
 * the request and the person (src/domain/pseudonym.ts); no free text. Deleted by the cron.
 */
export const dpoRecords = sqliteTable(
  'dpo_records',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: DSR_KINDS }).notNull(),
    /** The outcome: the request's last state. */
    state: text('state', { enum: DSR_STATES }).notNull(),
    subjectPseudonym: text('subject_pseudonym').notNull(),
    dueAt: integer('due_at', { mode: 'timestamp_ms' }).notNull(),
    requestedAt: integer('requested_at', { mode: 'timestamp_ms' }).notNull(),
    completedAt: integer('completed_at', { mode: 'timestamp_ms' }),
    pseudonymisedAt: integer('pseudonymised_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('dpo_records_requested_idx').on(t.requestedAt)],
);

export const NOTICE_KINDS = ['retention', 'breach', 'webhook', 'majority'] as const;

/**
 * In-app notices to a person (`GET /api/me/notices`): e.g. the notice of erasure for inactivity
 * (Rule 8(2)). One per (person, kind, ref): writing a notice twice is a no-op.
 */
export const userNotices = sqliteTable(
  'user_notices',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTICE_KINDS }).notNull(),
    /** What the notice is about (the date of the retention notice, a breach id…). */
    ref: text('ref').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** When the email copy was delivered (the `email` job); null: not (yet) emailed. */
    emailedAt: integer('emailed_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_notices_user_kind_ref_unique').on(t.userId, t.kind, t.ref)],
);

/**
 * Personal data breaches (DPDP §8(6), Rule 7): what happened, when it was found, the data and
 * people affected, the measures taken, and the two intimations to the Data Protection Board
 * (the intimation without delay: due when recorded; the detailed report within 72 hours of
 * becoming aware). Each affected person gets an in-app notice (`user_notices`, kind `breach`).
 */
export const breaches = sqliteTable(
  'breaches',
  {
    id: id(),
    description: text('description').notNull(),
    occurredAt: integer('occurred_at', { mode: 'timestamp_ms' }),
    foundAt: integer('found_at', { mode: 'timestamp_ms' }).notNull(),
    categories: text('categories', { mode: 'json' }).$type<string[]>().notNull(),
    measures: text('measures').notNull(),
    /**
     * The consequences likely to arise for the people affected (Rules 2025, Rule 7(1)(b)), told in
     * each notice. '' for breaches recorded before it was asked: their notices leave it out.
     */
    consequences: text('consequences').notNull().default(''),
    affectedCount: integer('affected_count').notNull(),
    recordedBy: text('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    boardIntimationDueAt: integer('board_intimation_due_at', { mode: 'timestamp_ms' }).notNull(),
    boardIntimatedAt: integer('board_intimated_at', { mode: 'timestamp_ms' }),
    boardReportDueAt: integer('board_report_due_at', { mode: 'timestamp_ms' }).notNull(),
    boardReportedAt: integer('board_reported_at', { mode: 'timestamp_ms' }),
    /**
     * The selector that chose the affected people, when they were not named by id
     * (src/domain/breach-selector.ts); they are notified in pages by `breach_notification` jobs.
     */
    affectedQuery: text('affected_query', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** `done` once every affected person has a notice; `notifying` while the pages run. */
    notification: text('notification', { enum: ['notifying', 'done'] })
      .notNull()
      .default('done'),
    createdAt: createdAt(),
  },
  (t) => [index('breaches_created_idx').on(t.createdAt)],
);

export const WEBHOOK_EVENT_TYPES = [
  'evaluation.completed',
  'submission.rated',
  'certificate.issued',
  'certificate.revoked',
  'dsr.erasure.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * An organisation's webhook endpoints (docs/webhooks.md). The signing secret is kept in clear
 * (HMAC needs it); after a rotation the previous one also signs until `previousSecretExpiresAt`.
 * `failingSince` is the first failed attempt since the last success: days of it disable the endpoint.
 */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: id(),
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    eventTypes: text('event_types', { mode: 'json' }).$type<WebhookEventType[]>().notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    /** Why it is disabled: `manual` (a member or key) or `failing` (days of failed deliveries). */
    disabledReason: text('disabled_reason', { enum: ['manual', 'failing'] }),
    disabledAt: integer('disabled_at', { mode: 'timestamp_ms' }),
    /** `whsec_` + base64 of 32 random bytes. */
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: integer('previous_secret_expires_at', { mode: 'timestamp_ms' }),
    failingSince: integer('failing_since', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('webhook_endpoints_organisation_idx').on(t.organisationId, t.createdAt)],
);

/**
 * One event for one organisation: its id is the `webhook-id` every delivery of it carries. `ref`
 * is what it is about (an evaluation id…); one event per (organisation, type, ref), so emitting
 * twice (a retried job) records it once. The payload holds ids and states only, never personal data.
 */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    /** A WEBHOOK_EVENT_TYPES value, or `webhook.ping` (a test message). */
    type: text('type').$type<WebhookEventType | 'webhook.ping'>().notNull(),
    ref: text('ref').notNull(),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('webhook_events_organisation_type_ref_unique').on(t.organisationId, t.type, t.ref)],
);

export const WEBHOOK_DELIVERY_STATES = ['pending', 'succeeded', 'failed', 'dead_lettered'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** An event's delivery to one endpoint. `dead_lettered`: every scheduled attempt failed. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: id(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    state: text('state', { enum: WEBHOOK_DELIVERY_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }),
    deliveredAt: integer('delivered_at', { mode: 'timestamp_ms' }),
    deadLetteredAt: integer('dead_lettered_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_endpoint_event_unique').on(t.endpointId, t.eventId),
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

/** Each HTTP attempt of a delivery: the delivery log. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: id(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    /** 1-based; a redelivery on demand continues the count. */
    attempt: integer('attempt').notNull(),
    trigger: text('trigger', { enum: ['scheduled', 'manual'] }).notNull(),
    attemptedAt: integer('attempted_at', { mode: 'timestamp_ms' }).notNull(),
    /** The receiver's status; null when there was no answer (refused target, timeout, network). */
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms'),
    error: text('error'),
  },
  (t) => [uniqueIndex('webhook_attempts_delivery_attempt_unique').on(t.deliveryId, t.attempt)],
);

/** `consent_events.granted_by` of a grant whose guardian has since been erased. */
export const ERASED_GUARDIAN = 'erased-guardian';

export const GUARDIAN_REQUEST_STATES = ['pending', 'approved', 'refused', 'ended'] as const;
export type GuardianRequestState = (typeof GUARDIAN_REQUEST_STATES)[number];

/**
 * Verifiable consent of a parent or lawful guardian for a child (DPDP §9(1), Rule 10): the child's
 * signup names the guardian's email; that adult, signed in to their own account, approves or
 * refuses. While the child has no `approved` request with a guardian, the account can do nothing
 * beyond its signup (src/services/guardians.ts). `ended`: superseded by a new request, withdrawn
 * by the guardian, or the child turned 18.
 */
export const guardianRequests = sqliteTable(
  'guardian_requests',
  {
    id: id(),
    childId: text('child_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Lower-cased; the account with this email decides. */
    guardianEmail: text('guardian_email').notNull(),
    /** The adult who decided; null while pending (and if they are erased: the link ends). */
    guardianId: text('guardian_id').references(() => users.id, { onDelete: 'set null' }),
    /** As the guardian declared it on approval. */
    relationship: text('relationship', { enum: ['parent', 'lawful_guardian'] }),
    state: text('state', { enum: GUARDIAN_REQUEST_STATES }).notNull().default('pending'),
    createdAt: createdAt(),
    decidedAt: integer('decided_at', { mode: 'timestamp_ms' }),
    endedAt: integer('ended_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('guardian_requests_child_idx').on(t.childId, t.state),
    index('guardian_requests_email_idx').on(t.guardianEmail, t.state),
    index('guardian_requests_guardian_idx').on(t.guardianId, t.state),
  ],
);
