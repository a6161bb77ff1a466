// Seeds the benchmark's local D1 database directly (node:sqlite on the SQLite file wrangler's
// local D1 keeps under `<persist-to>/v3/d1/miniflare-D1DatabaseObject/`), after the migrations
// are applied and before `wrangler dev` opens it. Much faster than going through the API, and
// every row is what the service itself would have written: certificate numbers carry their
// check character, credentials are signed with the local CERT_SIGNING_KEY, fingerprints of the
// matching submission come from the real winnowing code, consent events use the current notice.
//
// Everything is drawn from a seeded PRNG, so every run seeds the same data (only timestamps,
// relative to now, and the Ed25519 signatures differ).
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export const DOMAINS = [
  'web-development',
  'data-science',
  'mobile-development',
  'devops',
  'product-design',
  'security',
  'machine-learning',
  'technical-writing',
];
const EMPLOYERS_PER_DOMAIN = 5;
const BRIEFS_PER_EMPLOYER = 4;
const MILESTONES_PER_BRIEF = 3;
export const CANDIDATES = 5000;
/** Random fingerprints per corpus submission (a real 2,000-word text has ~1,100; this keeps the seed fast). */
export const FINGERPRINTS_PER_SUBMISSION = 50;
/** Corpus submissions per corpus author. */
const SUBMISSIONS_PER_CORPUS_AUTHOR = 20;
const DAY = 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/**
 * mulberry32: a small, fast, seedable 32-bit PRNG.
 * @param {number} seed
 */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (/** @type {number} */ n) => Math.floor(next() * n);
  return {
    next,
    int,
    /** @template T @param {readonly T[]} list @returns {T} */
    pick: (list) => /** @type {T} */ (list[int(list.length)]),
    chance: (/** @type {number} */ p) => next() < p,
    /** @param {number} n */
    bytes: (n) => Uint8Array.from({ length: n }, () => int(256)),
    uuid: () => {
      const b = Uint8Array.from({ length: 16 }, () => int(256));
      b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
      b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
      const h = Buffer.from(b).toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    },
    /** An integer in [0, 2^52): the range of the service's packed winnowing hashes. */
    hash52: () => int(2 ** 20) * 2 ** 32 + int(2 ** 32),
  };
}
/** @typedef {ReturnType<typeof prng>} Rng */

// ---------------------------------------------------------------------------------------------
// Text

const WORDS = (
  'the of and to in is that for it as with was on be by this are or from at which an but not have ' +
  'has were all their more can its will one about also into than other some these only over such new ' +
  'data model service request response cache latency throughput index query table row column user ' +
  'design system network server client browser worker queue event stream batch job schedule deploy ' +
  'build test suite coverage review commit branch merge release version migration schema record ' +
  'field value type string number array object function method class module package library ' +
  'interface component layout style color font spacing grid flex mobile screen touch gesture ' +
  'analysis feature training validation accuracy precision recall metric baseline experiment ' +
  'pipeline dataset sample label signal noise outlier regression cluster forest gradient tensor ' +
  'security threat attack token secret key certificate signature policy access audit log alert ' +
  'incident runbook monitor dashboard capacity budget cost storage bucket region replica failover ' +
  'document guide tutorial reference example section chapter summary outline draft edit publish ' +
  'customer product market team project milestone deadline priority estimate scope risk decision ' +
  'improve measure reduce increase handle support enable provide create update delete read write ' +
  'fast slow simple complex robust fragile clear careful small large early late first last final'
).split(' ');

/**
 * @param {Rng} rng
 * @param {number} words
 */
export function prose(rng, words) {
  const out = [];
  let sentence = 0;
  for (let i = 0; i < words; i++) {
    let w = rng.pick(WORDS);
    if (sentence === 0) w = w[0]?.toUpperCase() + w.slice(1);
    sentence++;
    if (sentence > 8 && rng.chance(0.12)) {
      w += '.';
      sentence = 0;
    } else if (rng.chance(0.05)) w += ',';
    out.push(w);
  }
  return `${out.join(' ').replace(/,$/, '')}.`;
}

/** Text every checked submission quotes from the one stored submission that matches. */
export const SHARED_PASSAGE = prose(prng(424242), 160);
/** Boilerplate found in many stored submissions: more than MAX_SHARED_BY (20), so ignored. */
export const BOILERPLATE = prose(prng(777), 60);

const FIRST = (
  'Aarav Aditi Akash Ananya Arjun Asha Dev Diya Farah Gaurav Ishaan Kavya Lakshmi Meera Nikhil ' +
  'Priya Rahul Riya Rohan Sana Tara Vikram Zoya Amara Chen Elena Jonas Kofi Lena Mateo Noor Omar ' +
  'Sofia Yuki Ines Leila Marco Nadia Tomas'
).split(' ');
const LAST = (
  'Sharma Verma Iyer Nair Reddy Gupta Khan Das Menon Bose Kapoor Joshi Rao Pillai Singh Okafor ' +
  'Silva Novak Tanaka Haddad Moreau Larsen Costa Fischer Ahmed Kowalski Mensah Ortiz'
).split(' ');
const COMPANY = 'Acme Northwind Globex Initech Umbrella Stark Wayne Tyrell Cyberdyne Soylent'.split(' ');
const COMPANY_KIND = 'Labs Analytics Systems Digital Works Studio Cloud Partners'.split(' ');

// ---------------------------------------------------------------------------------------------
// Database access

/** @param {string} persistTo */
export function d1File(persistTo) {
  const dir = join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const files = readdirSync(dir).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (files.length !== 1) throw new Error(`expected one local D1 database in ${dir}, found ${files.length}`);
  return join(dir, /** @type {string} */ (files[0]));
}

/** @param {string} persistTo */
function open(persistTo) {
  const db = new DatabaseSync(d1File(persistTo));
  // Rows are buffered into multi-row inserts, so a child can reach SQLite before its parent:
  // foreign keys are checked once, at the end, by checkForeignKeys (per-row deferred checks make
  // every parent insert scan its child tables while a violation is outstanding).
  db.exec('PRAGMA foreign_keys = OFF; PRAGMA cache_size = -512000; PRAGMA synchronous = OFF;');
  return db;
}

/**
 * Fails when any row points at a missing parent (what D1 would have refused).
 * @param {DatabaseSync} db
 * @param {string[]} tables
 */
function checkForeignKeys(db, tables) {
  for (const t of tables) {
    const bad = db.prepare(`PRAGMA foreign_key_check(${t})`).all();
    if (bad.length > 0)
      throw new Error(`seed: ${bad.length} rows of ${t} break a foreign key, e.g. ${JSON.stringify(bad[0])}`);
  }
}

/**
 * Inserts rows with multi-row statements (fewer calls across the JS/SQLite boundary).
 * @param {DatabaseSync} db
 * @param {string} table
 * @param {string[]} columns
 */
export function inserter(db, table, columns) {
  const per = Math.max(1, Math.floor(900 / columns.length));
  const row = `(${columns.map(() => '?').join(', ')})`;
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
  const full = db.prepare(head + Array(per).fill(row).join(', '));
  /** @type {(string | number | null)[]} */
  let pending = [];
  let count = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const n = pending.length / columns.length;
    if (n === per) full.run(...pending);
    else db.prepare(head + Array(n).fill(row).join(', ')).run(...pending);
    pending = [];
  };
  return {
    /** @param {(string | number | null)[]} values */
    add(values) {
      if (values.length !== columns.length)
        throw new Error(`${table}: ${values.length} values for ${columns.length} columns`);
      for (const v of values) pending.push(v);
      count++;
      if (pending.length >= per * columns.length) flush();
    },
    done() {
      flush();
      return count;
    },
  };
}

/** @param {unknown} v */
const json = (v) => JSON.stringify(v);
const sha256Hex = (/** @type {string} */ s) => createHash('sha256').update(s).digest('hex');
const base64 = (/** @type {Uint8Array} */ b) => Buffer.from(b).toString('base64');
/** The DSR person's password (bench data only). */
export const DSR_PASSWORD = 'bench-dsr-person-password-1';

// ---------------------------------------------------------------------------------------------
// The platform: employers, briefs, candidates, work, ratings, certificates, consents

/**
 * @typedef {{
 *   certificates: { no: string; domain: string; named: boolean; holder: string }[];
 *   briefs: { id: string; domain: string; employerId: string; milestones: string[] }[];
 *   dsr: { userId: string; email: string; name: string; password: string; token: string; submissions: number; certificates: number; certificateNos: string[] };
 *   source: { submissionId: string; fingerprints: number };
 *   counts: Record<string, number>;
 * }} BaseSeed
 */

/**
 * @param {string} persistTo
 * @param {import('./bundle.mjs').Domain} domain
 * @param {{ signingKey: string; baseUrl: string; now?: number }} options
 * @returns {Promise<BaseSeed>}
 */
export async function seedBase(persistTo, domain, { signingKey, baseUrl, now = Date.now() }) {
  const rng = prng(20261121);
  const key = await domain.importSigningKey(signingKey, baseUrl);
  const db = open(persistTo);
  const notice = domain.CURRENT_NOTICE_VERSION;
  const users = inserter(db, 'users', [
    'id',
    'email',
    'name',
    'role',
    'public_alias',
    'password_hash',
    'password_salt',
    'password_iterations',
    'organisation_id',
    'created_at',
  ]);
  const user = (
    /** @type {string} */ email,
    /** @type {string} */ name,
    /** @type {string} */ role,
    alias = null,
    /** @type {string | null} */ organisationId = null,
  ) => {
    const id = rng.uuid();
    users.add([
      id,
      email,
      name,
      role,
      alias,
      base64(rng.bytes(32)),
      base64(rng.bytes(16)),
      100000,
      organisationId,
      now - 200 * DAY,
    ]);
    return id;
  };

  db.exec('BEGIN');
  // Employers, each the member of its own organisation (one in ten not verified: its ratings and
  // certificates stay out of the public leaderboard and agreement rate, as in production), and
  // their published briefs, each with a rubric and a three-milestone playbook.
  const organisationRows = inserter(db, 'organisations', [
    'id',
    'name',
    'website_url',
    'domains',
    'verification',
    'verification_method',
    'verified_domain',
    'verified_at',
    'created_at',
  ]);
  /** @type {{ id: string; name: string; domain: string; organisationId: string; verified: boolean }[]} */
  const employers = [];
  for (const d of DOMAINS) {
    for (let i = 0; i < EMPLOYERS_PER_DOMAIN; i++) {
      const name = `${rng.pick(COMPANY)} ${rng.pick(COMPANY_KIND)}`;
      const organisationId = rng.uuid();
      const verified = !rng.chance(0.1);
      const site = `${d}-${i}.bench.example`;
      organisationRows.add([
        organisationId,
        name,
        `https://${site}`,
        json([site]),
        verified ? 'verified' : 'unverified',
        verified ? 'dns' : null,
        verified ? site : null,
        verified ? now - 190 * DAY : null,
        now - 200 * DAY,
      ]);
      const id = user(`hiring-${d}-${i}@bench.local`, name, 'employer', null, organisationId);
      employers.push({ id, name, domain: d, organisationId, verified });
    }
  }
  organisationRows.done();
  users.done();
  const briefRows = inserter(db, 'briefs', [
    'id',
    'employer_id',
    'organisation_id',
    'title',
    'domain',
    'description',
    'deliverables',
    'success_criteria',
    'duration_days',
    'state',
    'playbook_engine',
    'created_at',
    'published_at',
  ]);
  const rubricRows = inserter(db, 'rubrics', [
    'id',
    'brief_id',
    'criteria',
    'pass_threshold',
    'engine',
    'created_at',
  ]);
  const milestoneRows = inserter(db, 'milestones', [
    'id',
    'brief_id',
    'position',
    'day',
    'title',
    'tasks',
    'tutorial_links',
    'is_final',
  ]);
  /** @type {BaseSeed['briefs']} */
  const briefs = [];
  /**
   * @type {Map<string, { title: string; employer: (typeof employers)[number];
   *   rubric: { id: string; name: string; description: string; levels: { score: number; descriptor: string }[] }[] }>}
   */
  const briefInfo = new Map();
  for (const e of employers) {
    for (let b = 0; b < BRIEFS_PER_EMPLOYER; b++) {
      const id = rng.uuid();
      const title = `${e.domain.replace('-', ' ')} brief ${b + 1}: ${prose(rng, 5).replace(/\.$/, '')}`;
      const created = now - (150 + rng.int(30)) * DAY;
      briefRows.add([
        id,
        e.id,
        e.organisationId,
        title,
        e.domain,
        prose(rng, 80),
        json([prose(rng, 8), prose(rng, 8)]),
        json([prose(rng, 10), prose(rng, 10), prose(rng, 10)]),
        14,
        'published',
        'local',
        created,
        created + DAY,
      ]);
      const rubric = [1, 2, 3, 4].map((n) => ({
        id: `c${n}`,
        name: prose(rng, 3),
        description: prose(rng, 12),
        weight: 25,
        levels: [1, 2, 3, 4, 5].map((score) => ({ score, descriptor: prose(rng, 6) })),
        source: prose(rng, 10),
      }));
      rubricRows.add([rng.uuid(), id, json(rubric), 3, 'local', created]);
      const milestones = [];
      for (let m = 1; m <= MILESTONES_PER_BRIEF; m++) {
        const mid = rng.uuid();
        milestones.push(mid);
        milestoneRows.add([
          mid,
          id,
          m,
          m * 4,
          prose(rng, 4),
          json([prose(rng, 8), prose(rng, 8)]),
          json(['https://developer.mozilla.org/en-US/docs/Web/HTTP']),
          m === MILESTONES_PER_BRIEF ? 1 : 0,
        ]);
      }
      briefs.push({ id, domain: e.domain, employerId: e.id, milestones });
      briefInfo.set(id, { title, employer: e, rubric });
    }
  }
  briefRows.done();
  rubricRows.done();
  milestoneRows.done();

  const users2 = inserter(db, 'users', [
    'id',
    'email',
    'name',
    'role',
    'public_alias',
    'password_hash',
    'password_salt',
    'password_iterations',
    'created_at',
  ]);
  const consent = inserter(db, 'consent_events', [
    'id',
    'user_id',
    'purpose',
    'action',
    'notice_version',
    'created_at',
  ]);
  const submissionRows = inserter(db, 'submissions', [
    'id',
    'candidate_id',
    'brief_id',
    'milestone_id',
    'text',
    'files',
    'repository_url',
    'commits',
    'state',
    'created_at',
    'updated_at',
  ]);
  const evaluationRows = inserter(db, 'evaluations', [
    'id',
    'submission_id',
    'state',
    'ai_evaluated',
    'criterion_scores',
    'overall_score',
    'verdict',
    'engine',
    'integrity',
    'created_at',
    'completed_at',
  ]);
  const ratingRows = inserter(db, 'employer_ratings', [
    'id',
    'evaluation_id',
    'employer_id',
    'organisation_id',
    'brief_id',
    'domain',
    'score',
    'verdict',
    'comment',
    'ai_verdict',
    'created_at',
  ]);
  const certificateRows = inserter(db, 'certificates', [
    'id',
    'certificate_no',
    'holder_id',
    'brief_id',
    'employer_id',
    'organisation_id',
    'submission_id',
    'domain',
    'status',
    'signed_organisation_name',
    'credential_jwt',
    'earned_at',
    'issued_at',
    'revoked_at',
    'revoked_reason',
  ]);
  // Each signed credential's bit in the revocation status list, bound in the issue (as issuance does).
  const statusRows = inserter(db, 'credential_statuses', [
    'status_index',
    'state',
    'certificate_id',
    'created_at',
  ]);
  /** @type {Map<string, string>} holder id → `credentialSubject.id` UUID, set at their first certificate */
  const subjects = new Map();
  const subjectOf = (/** @type {string} */ holderId) => {
    const known = subjects.get(holderId);
    if (known) return known;
    const subject = rng.uuid();
    subjects.set(holderId, subject);
    return subject;
  };
  /** @type {BaseSeed['certificates']} */
  const certificates = [];
  const usedNumbers = new Set();
  let nextStatusIndex = 0;
  /** @type {Map<string, number>} */
  const revokedOf = new Map();
  /** @type {Map<string, number>} holder → certificates waiting for their organisation's verification */
  const pendingOf = new Map();

  /**
   * One piece of work: submission → AI evaluation (with consent) → employer rating → a
   * certificate when the employer passes the final milestone.
   * @param {{ candidateId: string; brief: BaseSeed['briefs'][number]; milestone: string; isFinal: boolean;
   *   aiConsent: boolean; at: number; text: string; files: unknown; commits: unknown; named: boolean }} w
   */
  const work = async (w) => {
    const submissionId = rng.uuid();
    submissionRows.add([
      submissionId,
      w.candidateId,
      w.brief.id,
      w.milestone,
      w.text,
      w.files === null ? null : json(w.files),
      w.files === null ? null : `https://git.example.com/${w.candidateId.slice(0, 8)}/work.git`,
      w.commits === null ? null : json(w.commits),
      'rated',
      w.at,
      w.at + DAY,
    ]);
    const evaluationId = rng.uuid();
    const aiScore = 1 + rng.int(5);
    const aiVerdict = aiScore >= 3 ? 'pass' : 'fail';
    evaluationRows.add([
      evaluationId,
      submissionId,
      'completed',
      w.aiConsent ? 1 : 0,
      w.aiConsent
        ? json(
            [1, 2, 3, 4].map((n) => ({ criterionId: `c${n}`, score: aiScore, explanation: prose(rng, 10) })),
          )
        : null,
      w.aiConsent ? aiScore : null,
      w.aiConsent ? aiVerdict : null,
      w.aiConsent ? 'local' : null,
      json({ score: 80 + rng.int(20), verdict: 'clean' }),
      w.at + 60_000,
      w.at + 120_000,
    ]);
    // Employers agree with the AI about 80 % of the time.
    const verdict = w.aiConsent
      ? rng.chance(0.8)
        ? aiVerdict
        : aiVerdict === 'pass'
          ? 'fail'
          : 'pass'
      : rng.pick(['pass', 'fail']);
    const score = verdict === 'pass' ? 3 + rng.int(3) : 1 + rng.int(2);
    const ratedAt = w.at + DAY;
    const info = /** @type {NonNullable<ReturnType<typeof briefInfo.get>>} */ (briefInfo.get(w.brief.id));
    ratingRows.add([
      rng.uuid(),
      evaluationId,
      w.brief.employerId,
      info.employer.organisationId,
      w.brief.id,
      w.brief.domain,
      score,
      verdict,
      rng.chance(0.3) ? prose(rng, 12) : null,
      w.aiConsent ? aiVerdict : null,
      ratedAt,
    ]);
    if (!(w.isFinal && verdict === 'pass')) return;
    let no = domain.generateCertificateNumber(rng.bytes);
    while (usedNumbers.has(no)) no = domain.generateCertificateNumber(rng.bytes);
    usedNumbers.add(no);
    const id = rng.uuid();
    const organisation = info.employer;
    /**
     * @param {string} status @param {string | null} signedName @param {string | null} jwt
     * @param {number | null} revokedAt
     */
    const certificateRow = (status, signedName, jwt, revokedAt) =>
      certificateRows.add([
        id,
        no,
        w.candidateId,
        w.brief.id,
        w.brief.employerId,
        organisation.organisationId,
        submissionId,
        w.brief.domain,
        status,
        signedName,
        jwt,
        ratedAt,
        ratedAt,
        revokedAt,
        revokedAt === null ? null : 'Issued in error',
      ]);
    if (!organisation.verified) {
      // Earned under an organisation not verified yet: a number, no credential (pending_issuer).
      certificateRow('pending_issuer', null, null, null);
      pendingOf.set(w.candidateId, (pendingOf.get(w.candidateId) ?? 0) + 1);
      return;
    }
    const statusIndex = nextStatusIndex++;
    const jwt = await domain.signCredential(
      {
        certificateId: id,
        certificateNo: no,
        baseUrl,
        issuer: { organisationId: organisation.organisationId, name: organisation.name, url: null },
        subjectId: subjectOf(w.candidateId),
        brief: { id: w.brief.id, title: info.title, domain: w.brief.domain },
        rubric: info.rubric,
        results: {
          criteria: info.rubric.map((c) => ({ criterionId: c.id, score: w.aiConsent ? aiScore : score })),
          overall: score,
        },
        statusIndex,
        issuedAt: new Date(ratedAt),
      },
      key,
    );
    const revoked = rng.chance(0.02);
    certificateRow(
      revoked ? 'revoked' : 'active',
      organisation.name,
      jwt,
      revoked ? ratedAt + 5 * DAY : null,
    );
    statusRows.add([statusIndex, 'bound', id, ratedAt]);
    if (!revoked) certificates.push({ no, domain: w.brief.domain, named: w.named, holder: w.candidateId });
    else revokedOf.set(w.candidateId, (revokedOf.get(w.candidateId) ?? 0) + 1);
  };

  const briefsByDomain = new Map(DOMAINS.map((d) => [d, briefs.filter((b) => b.domain === d)]));
  for (let c = 0; c < CANDIDATES; c++) {
    const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
    const id = rng.uuid();
    users2.add([
      id,
      `candidate-${c}@bench.local`,
      name,
      'candidate',
      rng.chance(0.15) ? `${name.split(' ')[0]}-${c}` : null,
      base64(rng.bytes(32)),
      base64(rng.bytes(16)),
      100000,
      now - 180 * DAY,
    ]);
    const joined = now - (100 + rng.int(60)) * DAY;
    const aiConsent = rng.chance(0.9);
    const leaderboard = rng.chance(0.75);
    const named = rng.chance(0.7);
    if (aiConsent) consent.add([rng.uuid(), id, 'ai_evaluation', 'grant', notice, joined]);
    if (leaderboard) {
      consent.add([rng.uuid(), id, 'leaderboard', 'grant', notice, joined + 1000]);
      if (rng.chance(0.05)) consent.add([rng.uuid(), id, 'leaderboard', 'revoke', notice, joined + 30 * DAY]);
    }
    if (named) consent.add([rng.uuid(), id, 'public_verification', 'grant', notice, joined + 2000]);
    const home = rng.pick(DOMAINS);
    const attempts = 1 + rng.int(3);
    for (let a = 0; a < attempts; a++) {
      const brief = rng.pick(
        /** @type {BaseSeed['briefs']} */ (briefsByDomain.get(rng.chance(0.8) ? home : rng.pick(DOMAINS))),
      );
      await work({
        candidateId: id,
        brief,
        milestone: /** @type {string} */ (brief.milestones[MILESTONES_PER_BRIEF - 1]),
        isFinal: true,
        aiConsent,
        at: now - (5 + rng.int(115)) * DAY,
        text: prose(rng, 30),
        files: null,
        commits: null,
        named,
      });
    }
  }
  users2.done();

  // The person of the DSR benchmarks: 1,000 submissions with files and commits, every one
  // evaluated and rated, a few dozen certificates, consents, sessions, requests, audit entries.
  const dsrName = 'Asha Verma';
  const dsrEmail = 'dsr.person@bench.local';
  const users3 = inserter(db, 'users', [
    'id',
    'email',
    'name',
    'role',
    'public_alias',
    'password_hash',
    'password_salt',
    'password_iterations',
    'created_at',
  ]);
  const dsrId = rng.uuid();
  // A real password: erasure asks for a sign-in within 15 minutes (recent-sign-in), and the DSR
  // section runs later than that after the seeded session was made, so it signs in again.
  const dsrPassword = await domain.hashPassword(DSR_PASSWORD);
  users3.add([
    dsrId,
    dsrEmail,
    dsrName,
    'candidate',
    null,
    dsrPassword.passwordHash,
    dsrPassword.passwordSalt,
    dsrPassword.passwordIterations,
    now - 400 * DAY,
  ]);
  const sourceAuthor = rng.uuid();
  users3.add([
    sourceAuthor,
    'source.author@bench.local',
    'Source Author',
    'candidate',
    null,
    'x',
    'x',
    100000,
    now - 300 * DAY,
  ]);
  users3.done();
  for (const purpose of ['ai_evaluation', 'leaderboard', 'public_verification']) {
    consent.add([rng.uuid(), dsrId, purpose, 'grant', notice, now - 390 * DAY]);
  }
  consent.add([rng.uuid(), dsrId, 'leaderboard', 'revoke', notice, now - 200 * DAY]);
  consent.add([rng.uuid(), dsrId, 'leaderboard', 'grant', notice, now - 100 * DAY]);
  const certificatesBefore = certificates.length;
  const DSR_SUBMISSIONS = 1000;
  for (let s = 0; s < DSR_SUBMISSIONS; s++) {
    const brief = rng.pick(briefs);
    const position = s % 25 === 0 ? MILESTONES_PER_BRIEF : 1 + rng.int(MILESTONES_PER_BRIEF - 1);
    await work({
      candidateId: dsrId,
      brief,
      milestone: /** @type {string} */ (brief.milestones[position - 1]),
      isFinal: position === MILESTONES_PER_BRIEF,
      aiConsent: true,
      at: now - (380 - Math.floor((s * 370) / DSR_SUBMISSIONS)) * DAY + s * 1000,
      text: prose(rng, 200),
      files: [
        { path: 'README.md', content: `# ${prose(rng, 4)}\n\n${prose(rng, 120)}` },
        {
          path: 'src/main.ts',
          content: `export function main(input: string): number {\n  return input.length * ${s};\n}\n`,
        },
      ],
      commits: [1, 2, 3].map((n) => ({
        sha: createHash('sha1').update(`${s}-${n}`).digest('hex'),
        authorEmail: dsrEmail,
        authoredAt: new Date(now - (380 - s / 3) * DAY + n * 3_600_000).toISOString(),
        message: prose(rng, 6),
        additions: 10 + rng.int(200),
        deletions: rng.int(50),
      })),
      named: true,
    });
  }
  const dsrCertificateNos = certificates.slice(certificatesBefore).map((c) => c.no);
  const dsrCertificates =
    dsrCertificateNos.length + (revokedOf.get(dsrId) ?? 0) + (pendingOf.get(dsrId) ?? 0);
  const token = Buffer.from(rng.bytes(32)).toString('base64url');
  const sessionRows = inserter(db, 'sessions', [
    'id',
    'user_id',
    'token_hash',
    'created_at',
    'expires_at',
    'last_seen_at',
  ]);
  sessionRows.add([rng.uuid(), dsrId, sha256Hex(token), now, now + 7 * DAY, now]);
  sessionRows.add([rng.uuid(), dsrId, sha256Hex(`${token}-old`), now - 2 * DAY, now + 5 * DAY, now - DAY]);
  sessionRows.done();
  const dsrRows = inserter(db, 'dsr_requests', [
    'id',
    'user_id',
    'kind',
    'state',
    'details',
    'due_at',
    'created_at',
  ]);
  dsrRows.add([
    rng.uuid(),
    dsrId,
    'grievance',
    'received',
    json({ subject: 'Rating', description: prose(rng, 30) }),
    now + 80 * DAY,
    now - 10 * DAY,
  ]);
  dsrRows.add([
    rng.uuid(),
    dsrId,
    'correction',
    'completed',
    json({ name: { from: 'Asha V', to: dsrName } }),
    now - 20 * DAY,
    now - 50 * DAY,
  ]);
  dsrRows.done();
  const audit = inserter(db, 'audit_log', [
    'id',
    'actor_id',
    'action',
    'target_type',
    'target_id',
    'details',
    'created_at',
  ]);
  for (let i = 0; i < 40; i++)
    audit.add([rng.uuid(), dsrId, 'consent.granted', 'user', dsrId, json({ i }), now - (300 - i) * DAY]);
  audit.done();

  // The stored submission the integrity benchmark's texts copy from: real fingerprints.
  const sourceBrief = /** @type {BaseSeed['briefs'][number]} */ (briefs[0]);
  const sourceSubmission = rng.uuid();
  const sourceText = `${prose(rng, 150)} ${SHARED_PASSAGE} ${prose(rng, 150)}`;
  submissionRows.add([
    sourceSubmission,
    sourceAuthor,
    sourceBrief.id,
    /** @type {string} */ (sourceBrief.milestones[0]),
    sourceText,
    null,
    null,
    null,
    'evaluated',
    now - 30 * DAY,
    null,
  ]);
  const counts = {
    users: users.done() + users2.done() + users3.done(),
    briefs: briefRows.done(),
    milestones: milestoneRows.done(),
    consentEvents: consent.done(),
    submissions: submissionRows.done(),
    evaluations: evaluationRows.done(),
    employerRatings: ratingRows.done(),
    certificates: certificateRows.done(),
    credentialStatuses: statusRows.done(),
  };
  const sourcePrints = domain.fingerprintSubmission({ text: sourceText });
  const fp = inserter(db, 'fingerprints', ['hash', 'submission_id', 'position']);
  for (const p of sourcePrints) fp.add([p.hash, sourceSubmission, p.position]);
  fp.done();
  const freq = inserter(db, 'fingerprint_frequencies', ['hash', 'submissions']);
  for (const h of new Set(sourcePrints.map((p) => p.hash))) freq.add([h, 1]);
  freq.done();
  const setSubject = db.prepare('UPDATE users SET credential_subject_id = ? WHERE id = ?');
  for (const [holderId, subject] of subjects) setSubject.run(subject, holderId);
  checkForeignKeys(db, [
    'briefs',
    'rubrics',
    'milestones',
    'consent_events',
    'submissions',
    'evaluations',
    'users',
    'employer_ratings',
    'certificates',
    'credential_statuses',
    'sessions',
    'dsr_requests',
    'audit_log',
    'fingerprints',
  ]);
  db.exec('COMMIT');
  db.close();
  return {
    certificates,
    briefs,
    dsr: {
      userId: dsrId,
      email: dsrEmail,
      password: DSR_PASSWORD,
      name: dsrName,
      token,
      submissions: DSR_SUBMISSIONS,
      certificates: dsrCertificates,
      certificateNos: dsrCertificateNos,
    },
    source: { submissionId: sourceSubmission, fingerprints: sourcePrints.length },
    counts,
  };
}

// ---------------------------------------------------------------------------------------------
// The integrity corpus

/**
 * Adds stored submissions with fingerprints (random 52-bit hashes, ~50 each), consistent
 * `fingerprint_frequencies`, and the users / submissions rows the join needs. `boilerplate`
 * of them also hold the real fingerprints of BOILERPLATE (their frequency ends above 20, so
 * checks skip them). With `dsrUserId`, that person's submissions get random fingerprints too
 * and count towards the corpus. The fingerprint indexes are dropped during the load and
 * rebuilt after (one sort instead of millions of random B-tree inserts).
 *
 * @param {string} persistTo
 * @param {import('./bundle.mjs').Domain} domain
 * @param {{ seed: number; submissions: number; boilerplate: number; briefs: BaseSeed['briefs']; dsrUserId?: string; now?: number }} o
 * @returns {{ corpus: number; fingerprints: number; seconds: number }}
 */
export function seedCorpus(persistTo, domain, o) {
  const started = performance.now();
  const now = o.now ?? Date.now();
  const rng = prng(o.seed);
  const db = open(persistTo);
  const indexes = /** @type {{ sql: string; name: string }[]} */ (
    db
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'fingerprints' AND sql IS NOT NULL",
      )
      .all()
  );
  db.exec('BEGIN');
  for (const i of indexes) db.exec(`DROP INDEX ${i.name}`);

  /** @type {string[]} */
  const ids = [];
  const users = inserter(db, 'users', [
    'id',
    'email',
    'name',
    'role',
    'password_hash',
    'password_salt',
    'password_iterations',
    'created_at',
  ]);
  const subs = inserter(db, 'submissions', [
    'id',
    'candidate_id',
    'brief_id',
    'milestone_id',
    'text',
    'state',
    'created_at',
  ]);
  let author = '';
  for (let i = 0; i < o.submissions; i++) {
    if (i % SUBMISSIONS_PER_CORPUS_AUTHOR === 0) {
      author = rng.uuid();
      users.add([
        author,
        `corpus-${o.seed}-${i}@bench.local`,
        `${rng.pick(FIRST)} ${rng.pick(LAST)}`,
        'candidate',
        'x',
        'x',
        100000,
        now - 400 * DAY,
      ]);
    }
    const brief = rng.pick(o.briefs);
    const id = rng.uuid();
    subs.add([
      id,
      author,
      brief.id,
      /** @type {string} */ (brief.milestones[0]),
      `Corpus submission ${i}.`,
      'evaluated',
      now - rng.int(365) * DAY,
    ]);
    ids.push(id);
  }
  users.done();
  subs.done();
  if (o.dsrUserId) {
    for (const r of /** @type {{ id: string }[]} */ (
      db.prepare('SELECT id FROM submissions WHERE candidate_id = ?').all(o.dsrUserId)
    )) {
      ids.push(r.id);
    }
  }

  // Random hashes, distinct from each other and from every hash already stored.
  const total = ids.length * FINGERPRINTS_PER_SUBMISSION;
  const hashes = new Float64Array(total);
  for (let i = 0; i < total; i++) hashes[i] = rng.hash52();
  const sorted = Float64Array.from(hashes).sort();
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) throw new Error('random fingerprint collision; change the seed');
  }
  const stored = new Set(
    /** @type {{ hash: number }[]} */ (db.prepare('SELECT hash FROM fingerprint_frequencies').all()).map(
      (r) => r.hash,
    ),
  );
  for (const h of sorted)
    if (stored.has(h)) throw new Error('random fingerprint equals a stored one; change the seed');

  const fp = inserter(db, 'fingerprints', ['hash', 'submission_id', 'position']);
  for (const [s, id] of ids.entries()) {
    for (let k = 0; k < FINGERPRINTS_PER_SUBMISSION; k++) {
      fp.add([/** @type {number} */ (hashes[s * FINGERPRINTS_PER_SUBMISSION + k]), id, k * 11]);
    }
  }
  const freq = inserter(db, 'fingerprint_frequencies', ['hash', 'submissions']);
  for (const h of sorted) freq.add([h, 1]);
  freq.done();

  // Boilerplate held by many submissions: its frequency rises by one per holder.
  const boiler = [...new Set(domain.fingerprintSubmission({ text: BOILERPLATE }).map((p) => p.hash))];
  const bump = db.prepare(
    'INSERT INTO fingerprint_frequencies (hash, submissions) VALUES (?, 1) ON CONFLICT (hash) DO UPDATE SET submissions = submissions + 1',
  );
  for (let b = 0; b < Math.min(o.boilerplate, ids.length); b++) {
    const id = /** @type {string} */ (ids[b]);
    for (const [k, h] of boiler.entries()) {
      fp.add([h, id, 1000 + k * 11]);
      bump.run(h);
    }
  }
  const fingerprints = fp.done();
  for (const i of indexes) db.exec(i.sql);
  checkForeignKeys(db, ['submissions', 'fingerprints']);
  db.exec('COMMIT');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  return { corpus: ids.length, fingerprints, seconds: (performance.now() - started) / 1000 };
}

/**
 * Submissions holding fingerprints, and whether `fingerprint_frequencies` agrees with
 * `fingerprints` (checked on a sample of hashes; the full check is a multi-second join).
 * @param {string} persistTo
 */
export function corpusStats(persistTo) {
  const db = new DatabaseSync(d1File(persistTo), { readOnly: true });
  const { n } = /** @type {{ n: number }} */ (
    db.prepare('SELECT count(DISTINCT submission_id) AS n FROM fingerprints').get()
  );
  const bad = /** @type {{ bad: number }} */ (
    db
      .prepare(
        `SELECT count(*) AS bad FROM (SELECT hash, submissions FROM fingerprint_frequencies ORDER BY random() LIMIT 2000) f
         WHERE f.submissions <> (SELECT count(DISTINCT submission_id) FROM fingerprints WHERE hash = f.hash)`,
      )
      .get()
  ).bad;
  db.close();
  return { submissions: n, inconsistentSample: bad };
}

/**
 * Fingerprint rows holding any of `hashes`: what a lookup without the document-frequency filter
 * would read (the service skips hashes held by more than 20 submissions).
 * @param {string} persistTo
 * @param {number[]} hashes
 */
export function rowsHolding(persistTo, hashes) {
  const db = new DatabaseSync(d1File(persistTo), { readOnly: true });
  const distinct = [...new Set(hashes)];
  let rows = 0;
  for (let i = 0; i < distinct.length; i += 500) {
    const chunk = distinct.slice(i, i + 500);
    const r = /** @type {{ n: number }} */ (
      db
        .prepare(`SELECT count(*) AS n FROM fingerprints WHERE hash IN (${chunk.map(() => '?').join(', ')})`)
        .get(...chunk)
    );
    rows += r.n;
  }
  db.close();
  return rows;
}
