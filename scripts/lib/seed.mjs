// Demo data for the local D1 database. Every row has a fixed id and is written with
// INSERT OR IGNORE, so seeding twice changes nothing; the one exception is the admin, whose
// email and password are refreshed from .dev.vars on every run.
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_CERTIFICATE_NO, signDemoCredential } from './demo-certificate.mjs';
import { readDevVars } from './dev-vars.mjs';
import { D1_BINDING, runWrangler } from './wrangler.mjs';

/** Must match the Worker's password verification: PBKDF2-SHA256, 16-byte salt, 32-byte key. */
export const PASSWORD_ITERATIONS = 100_000;

/**
 * @param {string} password
 * @returns {{ hash: string, salt: string, iterations: number }} base64 key and salt
 */
export function hashPassword(password) {
  const salt = randomBytes(16);
  const key = pbkdf2Sync(password, salt, PASSWORD_ITERATIONS, 32, 'sha256');
  return { hash: key.toString('base64'), salt: salt.toString('base64'), iterations: PASSWORD_ITERATIONS };
}

/** Fixed ids (valid v4-shaped UUIDs) so re-seeding hits the same rows. */
export const IDS = {
  admin: '00000000-0000-4000-8000-000000000001',
  employer: '00000000-0000-4000-8000-000000000002',
  candidate: '00000000-0000-4000-8000-000000000003',
  brief: '00000000-0000-4000-8000-000000000101',
  rubric: '00000000-0000-4000-8000-000000000201',
  milestones: [
    '00000000-0000-4000-8000-000000000301',
    '00000000-0000-4000-8000-000000000302',
    '00000000-0000-4000-8000-000000000303',
  ],
  consents: [
    '00000000-0000-4000-8000-000000000401',
    '00000000-0000-4000-8000-000000000402',
    '00000000-0000-4000-8000-000000000403',
  ],
  submission: '00000000-0000-4000-8000-000000000501',
  evaluation: '00000000-0000-4000-8000-000000000601',
  rating: '00000000-0000-4000-8000-000000000701',
  certificate: '00000000-0000-4000-8000-000000000801',
  organisation: '00000000-0000-4000-8000-000000000901',
  /** The demo candidate's `credentialSubject` id. */
  candidateSubject: '00000000-0000-4000-8000-000000000a01',
};

/** The demo certificate's bit in the revocation status list. */
export const DEMO_STATUS_INDEX = 0;

/** The demo employer's organisation: verified, so its ratings issue valid certificates. */
export const DEMO_ORGANISATION = { name: 'Demo Hiring Co', domain: 'demo.local' };

/** When the demo certificate was issued (fixed, so its credential is the same on every seed). */
export const DEMO_ISSUED_AT = Date.UTC(2026, 0, 15, 10, 0, 0);

export const DEMO_EMPLOYER = {
  email: 'employer@demo.local',
  password: 'demo-employer-password',
  name: 'Asha Employer',
};
export const DEMO_CANDIDATE = {
  email: 'candidate@demo.local',
  password: 'demo-candidate-password',
  name: 'Ravi Candidate',
};

const REQUIREMENTS = {
  endpoints:
    'The API must expose endpoints to create, list, update and delete todos using the appropriate HTTP methods and status codes.',
  validation:
    'Every request body must be validated, and invalid input should be rejected with a 400 response whose body follows RFC 9457 problem details.',
  persistence: 'Todos should be persisted so that they survive a restart of the service.',
  testsDocs:
    'The project should include automated tests for every endpoint and a README that explains how to run it locally.',
};

const BRIEF = {
  title: 'Build a REST API for a todo app',
  domain: 'web-development',
  description: [
    'Build a small JSON REST API that lets a single user manage a personal todo list, where each todo has a title, an optional due date and a completed flag.',
    REQUIREMENTS.endpoints,
    REQUIREMENTS.validation,
    REQUIREMENTS.persistence,
    REQUIREMENTS.testsDocs,
    'Any language and framework is fine; keep the design simple and explain your choices.',
  ].join(' '),
  deliverables: [
    'A source code repository containing the todo API',
    'An automated test suite covering every endpoint, including error cases',
    'A README with setup instructions, run commands and example requests',
  ],
  successCriteria: [
    'Create, list, update and delete work and return the correct HTTP status codes',
    'Invalid requests are rejected with 400 and an application/problem+json body',
    'The test suite passes from a clean checkout with a single command',
  ],
  durationDays: 14,
};

/**
 * @param {string} name
 * @param {string} description
 * @param {number} weight
 * @param {string} source
 * @param {[string, string, string, string, string]} descriptors level 1 to level 5
 */
const criterion = (name, description, weight, source, descriptors) => ({
  id: name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, ''),
  name,
  description,
  weight,
  levels: descriptors.map((descriptor, i) => ({ score: i + 1, descriptor })),
  source,
});

const RUBRIC_CRITERIA = [
  criterion(
    'CRUD endpoints',
    'Create, list, update and delete are implemented with the right HTTP methods, paths and status codes.',
    30,
    REQUIREMENTS.endpoints,
    [
      'Fewer than two of the four operations work.',
      'Some operations work but methods or status codes are frequently wrong.',
      'All four operations work; a few status codes or methods are inappropriate.',
      'All four operations work with correct methods and status codes for success cases.',
      'All operations use correct methods and status codes for success and error cases, including 404 and 201 with Location.',
    ],
  ),
  criterion(
    'Input validation and errors',
    'Request bodies are validated and failures are reported as RFC 9457 problem details.',
    25,
    REQUIREMENTS.validation,
    [
      'No validation; invalid input crashes the service or is stored.',
      'Some fields are checked but errors are inconsistent or return 500.',
      'Invalid input returns 400, but the body is not problem+json.',
      'Invalid input returns 400 with a problem+json body for most cases.',
      'Every invalid input returns 400 with a complete problem+json body naming the offending fields.',
    ],
  ),
  criterion(
    'Persistence',
    'Todos are stored durably and survive a restart of the service.',
    20,
    REQUIREMENTS.persistence,
    [
      'Todos are held only in memory and are lost on restart.',
      'Storage exists but loses or corrupts data in common cases.',
      'Todos survive a restart; the storage layer is tangled with the request handlers.',
      'Todos survive a restart behind a clear storage layer.',
      'Durable storage with a clear layer, schema or migrations, and safe concurrent updates.',
    ],
  ),
  criterion(
    'Tests and documentation',
    'Automated tests cover every endpoint and the README explains how to run the project.',
    25,
    REQUIREMENTS.testsDocs,
    [
      'No tests and no usable README.',
      'A few tests or a README, but not enough to run or verify the project.',
      'Tests cover the happy paths and the README explains how to run the service.',
      'Tests cover every endpoint including error cases; the README is clear.',
      'Thorough, single-command tests for every endpoint and error case; the README includes example requests.',
    ],
  ),
];

const MILESTONES = [
  {
    day: 3,
    title: 'Design the API and scaffold the project',
    tasks: [
      'Choose a language, framework and storage for the service',
      'Write down the resource model and the endpoint list with methods and status codes',
      'Scaffold the project with a health-check route and a test runner',
    ],
    tutorialLinks: [
      'https://developer.mozilla.org/en-US/docs/Web/HTTP/Methods',
      'https://developer.mozilla.org/en-US/docs/Web/HTTP/Status',
      'https://hono.dev/docs/',
    ],
  },
  {
    day: 9,
    title: 'Implement the endpoints with validation and persistence',
    tasks: [
      'Implement create, list, update and delete for todos',
      'Validate request bodies and return RFC 9457 problem details on invalid input',
      'Persist todos so they survive a restart',
    ],
    tutorialLinks: [
      'https://www.rfc-editor.org/rfc/rfc9457',
      'https://hono.dev/docs/guides/validation',
      'https://developers.cloudflare.com/d1/',
    ],
  },
  {
    day: 14,
    title: 'Test, document and deliver',
    tasks: [
      'Write automated tests for every endpoint, including error cases',
      'Write a README with setup instructions and example requests',
      'Submit the repository link and a short summary of your design choices',
    ],
    tutorialLinks: [
      'https://hono.dev/docs/guides/testing',
      'https://vitest.dev/guide/',
      'https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-readmes',
    ],
  },
];

const CONSENT_PURPOSES = ['ai_evaluation', 'leaderboard', 'public_verification'];
const NOTICE_VERSION = 'v2';

/**
 * A SQL literal.
 * @param {string | number | boolean | null | object} value objects and arrays become JSON text
 * @returns {string}
 */
function lit(value) {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? '1' : '0';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * @param {string} table
 * @param {Record<string, string | number | boolean | null | object>} row
 * @param {string} [suffix] e.g. an ON CONFLICT clause
 * @param {string} [verb]
 */
function insert(table, row, suffix = '', verb = 'INSERT OR IGNORE') {
  const columns = Object.keys(row);
  return (
    `${verb} INTO ${table} (${columns.join(', ')})\n` +
    `VALUES (${columns.map((c) => lit(row[c])).join(', ')})${suffix ? `\n${suffix}` : ''};`
  );
}

/**
 * The demo people's date of birth (signup requires one since issue 19, DPDP §9): adults, so the
 * demo shows the full product. The admin has none (it is not a person who signs up).
 */
const DEMO_BIRTH_DATE = '1994-06-15';

/**
 * @param {{ id: string, email: string, name: string, role: string, password: string }} user
 * @param {number} now
 */
function userRow({ id, email, name, role, password }, now) {
  const { hash, salt, iterations } = hashPassword(password);
  return {
    id,
    email: email.trim().toLowerCase(),
    name,
    role,
    date_of_birth: role === 'admin' ? null : DEMO_BIRTH_DATE,
    password_hash: hash,
    password_salt: salt,
    password_iterations: iterations,
    // The demo addresses are confirmed (issue 41): the demo employer can prove a domain, the demo
    // people can act as guardians, without a mail round trip.
    email_confirmed_at: now,
    created_at: now,
  };
}

/**
 * The demo candidate's work, its evaluation and rating, and the certificate they earned: the
 * rows a `pass` rating of the final milestone leaves behind. Kept as they are on a re-seed,
 * except the credential, which is re-signed for the current base URL.
 * @param {string} credentialJwt
 */
function demoCertificateRows(credentialJwt) {
  const at = DEMO_ISSUED_AT;
  const scores = RUBRIC_CRITERIA.map((c) => ({
    criterionId: c.id,
    score: 4,
    explanation: `Meets the criterion "${c.name}" well, with small gaps.`,
  }));
  return [
    insert('submissions', {
      id: IDS.submission,
      candidate_id: IDS.candidate,
      brief_id: IDS.brief,
      milestone_id: IDS.milestones[MILESTONES.length - 1] ?? '',
      text: 'Repository with the todo API, its test suite and a README with example requests.',
      repository_url: 'https://github.com/example/todo-api',
      state: 'rated',
      created_at: at - 3_600_000,
      updated_at: at,
    }),
    insert('evaluations', {
      id: IDS.evaluation,
      submission_id: IDS.submission,
      state: 'completed',
      ai_evaluated: true,
      criterion_scores: scores,
      overall_score: 4,
      verdict: 'pass',
      engine: 'local',
      created_at: at - 3_600_000,
      completed_at: at - 3_000_000,
    }),
    insert('employer_ratings', {
      id: IDS.rating,
      evaluation_id: IDS.evaluation,
      employer_id: IDS.employer,
      organisation_id: IDS.organisation,
      brief_id: IDS.brief,
      domain: BRIEF.domain,
      score: 4,
      verdict: 'pass',
      comment: 'Clean API and thorough tests.',
      ai_verdict: 'pass',
      created_at: at,
    }),
    insert(
      'certificates',
      {
        id: IDS.certificate,
        certificate_no: DEMO_CERTIFICATE_NO,
        holder_id: IDS.candidate,
        brief_id: IDS.brief,
        employer_id: IDS.employer,
        organisation_id: IDS.organisation,
        signed_organisation_name: DEMO_ORGANISATION.name,
        submission_id: IDS.submission,
        domain: BRIEF.domain,
        status: 'active',
        credential_jwt: credentialJwt,
        earned_at: at,
        issued_at: at,
      },
      'ON CONFLICT(id) DO UPDATE SET credential_jwt = excluded.credential_jwt',
      'INSERT',
    ),
    // The holder's subject id and the certificate's status bit, as issuing sets them.
    `UPDATE users SET credential_subject_id = ${lit(IDS.candidateSubject)} WHERE id = ${lit(IDS.candidate)};`,
    insert(
      'credential_statuses',
      { status_index: DEMO_STATUS_INDEX, state: 'bound', certificate_id: IDS.certificate, created_at: at },
      'ON CONFLICT DO NOTHING',
      'INSERT',
    ),
  ];
}

/**
 * The seed as SQL statements.
 * @param {{ adminEmail: string, adminPassword: string, now?: number, credentialJwt?: string }} options
 *   credentialJwt: the demo certificate's signed credential (no demo certificate without it)
 * @returns {string}
 */
export function buildSeedSql({ adminEmail, adminPassword, now = Date.now(), credentialJwt }) {
  const admin = userRow(
    { id: IDS.admin, email: adminEmail, name: 'Demo Admin', role: 'admin', password: adminPassword },
    now,
  );
  const refresh = `password_hash = excluded.password_hash, password_salt = excluded.password_salt,
    password_iterations = excluded.password_iterations, role = 'admin', disabled_at = NULL,
    updated_at = ${now}`;
  // The admin is refreshed from .dev.vars. Conflict on email first: the same admin on a re-run,
  // or an admin the Worker created on first login (another id) — a non-admin with that email
  // is left alone. Otherwise a conflict on the fixed id means ADMIN_EMAIL changed.
  const adminUpsert = insert(
    'users',
    admin,
    `ON CONFLICT(email) DO UPDATE SET ${refresh}\n  WHERE users.id = excluded.id OR users.role = 'admin'\n` +
      `ON CONFLICT(id) DO UPDATE SET email = excluded.email, ${refresh}`,
    'INSERT',
  );

  const statements = [
    adminUpsert,
    insert('organisations', {
      id: IDS.organisation,
      name: DEMO_ORGANISATION.name,
      domains: [DEMO_ORGANISATION.domain],
      verification: 'verified',
      verification_method: 'admin',
      verification_reason: 'Demo data',
      verified_at: now,
      created_at: now,
    }),
    insert('users', {
      ...userRow({ id: IDS.employer, role: 'employer', ...DEMO_EMPLOYER }, now),
      organisation_id: IDS.organisation,
    }),
    insert('users', userRow({ id: IDS.candidate, role: 'candidate', ...DEMO_CANDIDATE }, now)),
    // A database seeded before addresses were confirmed: its demo people are confirmed too.
    `UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, ${now}) WHERE id IN (${lit(IDS.employer)}, ${lit(IDS.candidate)});`,
    insert('briefs', {
      id: IDS.brief,
      employer_id: IDS.employer,
      organisation_id: IDS.organisation,
      title: BRIEF.title,
      domain: BRIEF.domain,
      description: BRIEF.description,
      deliverables: BRIEF.deliverables,
      success_criteria: BRIEF.successCriteria,
      duration_days: BRIEF.durationDays,
      state: 'published',
      playbook_engine: 'local',
      created_at: now,
      published_at: now,
    }),
    insert('rubrics', {
      id: IDS.rubric,
      brief_id: IDS.brief,
      criteria: RUBRIC_CRITERIA,
      pass_threshold: 3,
      engine: 'local',
      created_at: now,
    }),
    ...MILESTONES.map((m, i) =>
      insert('milestones', {
        id: IDS.milestones[i],
        brief_id: IDS.brief,
        position: i + 1,
        day: m.day,
        title: m.title,
        tasks: m.tasks,
        tutorial_links: m.tutorialLinks,
        is_final: i === MILESTONES.length - 1,
      }),
    ),
    ...CONSENT_PURPOSES.map((purpose, i) =>
      insert('consent_events', {
        id: IDS.consents[i],
        user_id: IDS.candidate,
        purpose,
        action: 'grant',
        notice_version: NOTICE_VERSION,
        created_at: now,
      }),
    ),
    ...(credentialJwt ? demoCertificateRows(credentialJwt) : []),
  ];
  return `-- Generated by scripts/seed.mjs. Idempotent: fixed ids, INSERT OR IGNORE.\n${statements.join('\n\n')}\n`;
}

/** Checks the seed's own invariants, so an edit that breaks them fails loudly. */
function assertSeedShape() {
  const total = RUBRIC_CRITERIA.reduce((sum, c) => sum + c.weight, 0);
  if (total !== 100) throw new Error(`rubric weights sum to ${total}, not 100`);
  for (const c of RUBRIC_CRITERIA) {
    if (!BRIEF.description.includes(c.source))
      throw new Error(`criterion ${c.id}: source not in description`);
  }
  for (const m of MILESTONES) {
    if (m.day < 1 || m.day > BRIEF.durationDays) throw new Error(`milestone day ${m.day} out of range`);
  }
}

/**
 * Seeds the local D1 database (migrations must already be applied).
 * @param {{ persistTo?: string, baseUrl?: string, quiet?: boolean }} [options] persistTo: wrangler's
 *   state directory (default .wrangler/state); baseUrl: the dev server's URL, the demo credential's
 *   issuer; quiet: print nothing (`npm run dev` prints the accounts in its banner after "Ready")
 * @returns {Promise<{ accounts: { role: string, email: string, password: string }[], certificateUrl: string | null }>}
 */
export async function seedLocalDatabase({
  persistTo,
  baseUrl = 'http://localhost:8787',
  quiet = false,
} = {}) {
  const persist = persistTo ? ['--persist-to', persistTo] : [];
  const say = quiet ? () => {} : (/** @type {string} */ line) => console.log(line);
  assertSeedShape();
  const vars = readDevVars();
  const adminEmail = (vars.ADMIN_EMAIL ?? '').trim().toLowerCase();
  const adminPassword = vars.ADMIN_PASSWORD ?? '';
  if (!adminEmail || !adminPassword) throw new Error('.dev.vars must set ADMIN_EMAIL and ADMIN_PASSWORD');
  if (adminEmail === DEMO_EMPLOYER.email || adminEmail === DEMO_CANDIDATE.email) {
    throw new Error(`ADMIN_EMAIL must differ from the demo accounts (${adminEmail})`);
  }

  say('Seeding demo data into the local database…');
  const file = join(tmpdir(), `vp-seed-${process.pid}-${Date.now()}.sql`);
  const credentialJwt = vars.CERT_SIGNING_KEY
    ? await signDemoCredential({
        signingKey: vars.CERT_SIGNING_KEY,
        baseUrl,
        certificateId: IDS.certificate,
        issuer: { organisationId: IDS.organisation, name: DEMO_ORGANISATION.name },
        subjectId: IDS.candidateSubject,
        brief: { id: IDS.brief, title: BRIEF.title, domain: BRIEF.domain },
        rubric: RUBRIC_CRITERIA.map(({ id, name, description, levels }) => ({
          id,
          name,
          description,
          levels,
        })),
        results: { criteria: RUBRIC_CRITERIA.map((c) => ({ criterionId: c.id, score: 4 })), overall: 4 },
        statusIndex: DEMO_STATUS_INDEX,
        issuedAt: new Date(DEMO_ISSUED_AT),
      })
    : undefined;
  writeFileSync(file, buildSeedSql({ adminEmail, adminPassword, credentialJwt }), { mode: 0o600 });
  try {
    // Captured: without a TTY wrangler prints every statement's (empty) result as JSON.
    // runWrangler prints the captured output if the command fails.
    await runWrangler(['d1', 'execute', D1_BINDING, '--local', ...persist, '--yes', '--file', file], {
      capture: true,
    });
  } finally {
    rmSync(file, { force: true });
  }

  const out = await runWrangler(
    [
      'd1',
      'execute',
      D1_BINDING,
      '--local',
      ...persist,
      '--json',
      '--command',
      `SELECT email, role, disabled_at FROM users WHERE email IN (${[adminEmail, DEMO_EMPLOYER.email, DEMO_CANDIDATE.email].map(lit).join(', ')}) ORDER BY role`,
    ],
    { capture: true },
  );
  /** @type {{ results: { email: string, role: string, disabled_at: number | null }[] }[]} */
  const parsed = JSON.parse(out);
  const rows = parsed[0]?.results ?? [];
  const admin = rows.find((r) => r.email === adminEmail);
  if (admin?.role !== 'admin' || admin.disabled_at !== null) {
    throw new Error(
      `${adminEmail} exists but is not an enabled admin; change ADMIN_EMAIL in .dev.vars or reset local state`,
    );
  }
  say('Demo accounts:');
  const passwords = /** @type {Record<string, string>} */ ({
    [adminEmail]: '(ADMIN_PASSWORD from .dev.vars)',
    [DEMO_EMPLOYER.email]: DEMO_EMPLOYER.password,
    [DEMO_CANDIDATE.email]: DEMO_CANDIDATE.password,
  });
  const accounts = rows.map((r) => ({ role: r.role, email: r.email, password: passwords[r.email] ?? '' }));
  for (const a of accounts) say(`  ${a.role.padEnd(9)} ${a.email.padEnd(24)} ${a.password}`);
  const certificateUrl = credentialJwt ? `${baseUrl}/verify/${DEMO_CERTIFICATE_NO}` : null;
  if (credentialJwt) {
    // A cached verification would still name the previous base URL: drop it.
    await runWrangler(
      [
        'kv',
        'key',
        'delete',
        `verify:v1:${DEMO_CERTIFICATE_NO}`,
        '--binding',
        'CACHE',
        '--local',
        ...persist,
      ],
      { capture: true },
    ).catch(() => undefined);
    say(`Demo certificate: ${certificateUrl}`);
  }
  return { accounts, certificateUrl };
}
