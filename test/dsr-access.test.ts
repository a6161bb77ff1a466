import { env } from 'cloudflare:test';
import { BlobReader, configure, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';
import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { auditLog, consentEvents } from '../src/db/schema';
import { confirmationToken } from '../src/services/email-confirmations';
import { db, loginAdmin, seedBrief, seedCertifiedWork, signup } from './harness';
import { type Account, as, call, expectProblem, jsonInit } from './helpers';
import { authorise, exchange, http, register } from './ob-client';
import { pdfText } from './pdf-text';

// zip.js, independent of the fflate that wrote the archive, reads it inside workerd.
configure({ useWebWorkers: false });

type Archive = Map<string, Uint8Array>;

async function unzip(bytes: Uint8Array): Promise<Archive> {
  const reader = new ZipReader(new BlobReader(new Blob([bytes])));
  const files: Archive = new Map();
  for (const entry of await reader.getEntries()) {
    if (entry.directory) continue;
    files.set(entry.filename, await entry.getData(new Uint8ArrayWriter()));
  }
  await reader.close();
  return files;
}

const latin1 = (b: Uint8Array) => new TextDecoder('latin1').decode(b);
const parse = <T>(files: Archive, name: string): T =>
  JSON.parse(new TextDecoder().decode(files.get(name)!)) as T;

async function exportOf(account: Account): Promise<{ res: Response; files: Archive }> {
  const res = await call('/api/dsr/access', { headers: as(account) });
  const files = res.status === 200 ? await unzip(new Uint8Array(await res.arrayBuffer())) : new Map();
  return { res, files };
}

const JSON_FILES = [
  'profile.json',
  'consents.json',
  'sessions.json',
  'email-confirmations.json',
  'submissions.json',
  'evaluations.json',
  'ratings-received.json',
  'ratings-given.json',
  'briefs.json',
  'certificates.json',
  'oauth-grants.json',
  'recipients.json',
  'notices.json',
  'guardians.json',
  'dsr-requests.json',
  'audit-log.json',
  'manifest.json',
];

const SECRETS = /password|token_hash|tokenhash|key_hash|keyhash|salt/i;

describe('GET /api/dsr/access', { timeout: 30_000 }, () => {
  it("exports every kind of record about the caller as JSON and PDFs, and nothing secret or anyone else's", async () => {
    const employer = await signup('employer', 'Recruiter', 'Acme Hiring');
    const person = await signup('candidate', 'Priya Sharma');
    const other = await signup('candidate', 'Other Candidate');
    const brief = await seedBrief(employer.id);
    const first = await seedCertifiedWork(person, { ...brief, employerId: employer.id });
    const second = await seedCertifiedWork(person, { ...brief, employerId: employer.id });
    const theirs = await seedCertifiedWork(other, { ...brief, employerId: employer.id });
    await call(
      '/api/consent',
      jsonInit('POST', { purpose: 'leaderboard', action: 'grant', noticeVersion: 'v2' }, as(person)),
    );
    await call(
      '/api/dsr/grievance',
      jsonInit('POST', { subject: 'Hello', description: 'A question.' }, as(person)),
    );

    const { res, files } = await exportOf(person);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="personal-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('RateLimit-Policy')).toBe('"user";q=60;w=60');

    const certificatePdfs = [
      `certificates/${first.certificateNo}.pdf`,
      `certificates/${second.certificateNo}.pdf`,
    ];
    expect([...files.keys()].sort()).toEqual([...JSON_FILES, 'data-summary.pdf', ...certificatePdfs].sort());

    const manifest = parse<{
      formatVersion: number;
      generatedAt: string;
      counts: Record<string, number>;
      files: { name: string; records?: number; bytes?: number }[];
    }>(files, 'manifest.json');
    expect(manifest.formatVersion).toBe(1);
    expect(manifest.files.map((f) => f.name).sort()).toEqual([...files.keys()].sort());
    expect(manifest.counts).toMatchObject({
      'submissions.json': 2,
      'evaluations.json': 2,
      'ratings-received.json': 2,
      'ratings-given.json': 0,
      'certificates.json': 2,
      'briefs.json': 0,
    });

    const profile = parse<Record<string, unknown>>(files, 'profile.json');
    expect(profile).toMatchObject({
      id: person.id,
      email: person.email,
      name: 'Priya Sharma',
      role: 'candidate',
    });
    const consents = parse<{ states: Record<string, { state: string }>; history: unknown[] }>(
      files,
      'consents.json',
    );
    expect(consents.states.leaderboard?.state).toBe('granted');
    expect(consents.history).toHaveLength(1);
    const sessions = parse<{ current: boolean }[]>(files, 'sessions.json');
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    // The signup's confirmation link: the person's address and its dates, never the link or its hash.
    const links = parse<Record<string, unknown>[]>(files, 'email-confirmations.json');
    expect(links).toEqual([
      {
        id: expect.any(String),
        email: person.email.toLowerCase(),
        purpose: 'signup',
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        usedAt: null,
        correctionRequestId: null,
        invitationId: null,
      },
    ]);
    expect(manifest.counts['email-confirmations.json']).toBe(1);
    const linkRow = await env.DB.prepare('SELECT token_hash FROM email_confirmations WHERE id = ?')
      .bind(links[0]!.id)
      .first<{ token_hash: string }>();
    const token = await confirmationToken(env, links[0]!.id as string);
    for (const [name, bytes] of files) {
      expect(latin1(bytes), name).not.toContain(linkRow!.token_hash);
      expect(latin1(bytes), name).not.toContain(token);
    }
    const submissions = parse<{ id: string; text: string }[]>(files, 'submissions.json');
    expect(submissions.map((s) => s.id).sort()).toEqual([first.submissionId, second.submissionId].sort());
    const certificates = parse<{ certificateNo: string; credentialJwt: string; employerName: string }[]>(
      files,
      'certificates.json',
    );
    expect(certificates.map((c) => c.certificateNo).sort()).toEqual(
      [first.certificateNo, second.certificateNo].sort(),
    );
    expect(certificates[0]).toMatchObject({ credentialJwt: expect.any(String), employerName: 'Acme Hiring' });
    // Both securings (issue 56): the Data Integrity form beside the VC-JWT (none on these seeded rows).
    expect(certificates[0]).toHaveProperty('credentialDataIntegrity');
    const received = parse<Record<string, unknown>[]>(files, 'ratings-received.json');
    expect(received[0]).toMatchObject({ score: 4, verdict: 'pass', comment: 'Good work' });
    expect(received[0]).not.toHaveProperty('employerId');
    const requests = parse<{ kind: string; state: string }[]>(files, 'dsr-requests.json');
    expect(requests.map((r) => r.kind).sort()).toEqual(['access', 'grievance']);
    const audit = parse<{ action: string; byYou: boolean }[]>(files, 'audit-log.json');
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['consent.grant', 'dsr.grievance', 'dsr.access']),
    );
    expect(audit[0]).not.toHaveProperty('actorId');

    for (const [name, bytes] of files) {
      const text = latin1(bytes);
      const readable = name.endsWith('.pdf') ? `${text}\n${await pdfText(bytes)}` : text;
      expect(readable, name).not.toMatch(SECRETS);
      for (const foreign of [
        other.id,
        other.email,
        'Other Candidate',
        theirs.submissionId,
        theirs.certificateNo,
      ])
        expect(readable, `${name} holds another person's data`).not.toContain(foreign);
    }

    for (const name of ['data-summary.pdf', ...certificatePdfs]) {
      const pdf = files.get(name)!;
      expect(latin1(pdf.slice(0, 5)), name).toBe('%PDF-');
      expect(await pdfText(pdf), name).toContain('Priya Sharma');
    }
    const summary = await pdfText(files.get('data-summary.pdf')!);
    expect(summary).toContain(person.email);
    expect(summary).toContain(first.certificateNo);
    const certificate = await pdfText(files.get(certificatePdfs[0]!)!);
    expect(certificate).toContain(first.certificateNo);
    expect(certificate).toContain('Build a status page (web)');

    // The request is recorded, and complete once the archive has been read.
    const listed = await (await call('/api/me/dsr-requests', { headers: as(person) })).json<{
      items: { kind: string; state: string; completedAt: string | null }[];
    }>();
    expect(listed.items.find((r) => r.kind === 'access')).toMatchObject({
      state: 'completed',
      completedAt: expect.any(String),
    });
  });

  it("gives an employer the ratings they gave, without the candidate's data, and their briefs", async () => {
    const employer = await signup('employer', 'Kiran Rao');
    const candidate = await signup('candidate', 'Rated Candidate');
    const brief = await seedBrief(employer.id, 'data');
    const work = await seedCertifiedWork(candidate, { ...brief, employerId: employer.id, domain: 'data' });

    const { res, files } = await exportOf(employer);
    expect(res.status).toBe(200);
    const given = parse<Record<string, unknown>[]>(files, 'ratings-given.json');
    expect(given).toHaveLength(1);
    expect(given[0]).toMatchObject({
      evaluationId: work.evaluationId,
      score: 4,
      verdict: 'pass',
      domain: 'data',
    });
    expect(parse<{ id: string }[]>(files, 'briefs.json').map((b) => b.id)).toEqual([brief.briefId]);
    expect(parse<unknown[]>(files, 'submissions.json')).toEqual([]);
    expect([...files.keys()].filter((n) => n.startsWith('certificates/'))).toEqual([]);
    for (const [name, bytes] of files) {
      const text = latin1(bytes);
      for (const foreign of [
        candidate.id,
        candidate.email,
        'Rated Candidate',
        work.submissionId,
        'My status page',
      ])
        expect(text, name).not.toContain(foreign);
    }
    expect(await pdfText(files.get('data-summary.pdf')!)).toContain('Kiran Rao');
  });

  it('draws names in Devanagari and Tamil as text (embedded Noto fonts, shaped), not as question marks', async () => {
    for (const name of ['अनन्या क्षत्रिय', 'தமிழ்செல்வி Raman']) {
      const person = await signup('candidate', name);
      const { res, files } = await exportOf(person);
      expect(res.status).toBe(200);
      expect(parse<{ name: string }>(files, 'profile.json').name).toBe(name);
      const summary = files.get('data-summary.pdf')!;
      expect(await pdfText(summary)).toContain(name);
      expect(await pdfText(summary)).not.toContain('?????');
      // The fonts are embedded (as subsets), not referenced: a reader needs none installed.
      expect(latin1(summary)).toMatch(/\/FontFile2 \d+ 0 R/);
      expect(latin1(summary)).toMatch(/\/BaseFont \/NotoSans(Devanagari|Tamil)-Regular/);
    }
  });

  it('holds the person’s notices and guardianship records: for a child, their guardian, and the ward export', async () => {
    const unique = crypto.randomUUID().slice(0, 8);
    const guardian = await signup('candidate', `Parent ${unique}`);
    const now = new Date();
    const child = await signup('candidate', `Child ${unique}`, undefined, {
      dateOfBirth: `${now.getUTCFullYear() - 15}-01-01`,
      guardianEmail: guardian.email,
    });
    const { items } = await (await call('/api/guardian/requests', { headers: as(guardian) })).json<{
      items: { id: string; child: { email: string } }[];
    }>();
    const request = items.find((i) => i.child.email === child.email)!;
    await call(
      `/api/guardian/requests/${request.id}/approve`,
      jsonInit('POST', { relationship: 'parent' }, as(guardian)),
    );
    const admin = await loginAdmin();
    const description = `Breach ${unique}: a backup was readable by anyone.`;
    expect(
      (
        await call(
          '/api/admin/breaches',
          jsonInit(
            'POST',
            {
              description,
              foundAt: now.toISOString(),
              categories: ['email'],
              measures: 'The backup was deleted.',
              consequences: 'Someone may send you messages that pretend to be from us.',
              affectedUserIds: [child.id],
            },
            as(admin),
          ),
        )
      ).status,
    ).toBe(201);

    type NoticeRecord = { kind: string; title: string; body: string; emailedAt: string | null };
    type GuardianRecord = {
      role: 'child' | 'guardian';
      childId: string;
      childName: string;
      guardianEmail: string;
      relationship: string | null;
      state: string;
      decidedAt: string | null;
    };
    const check = (files: Archive, who: 'child' | 'guardian') => {
      const manifest = parse<{ counts: Record<string, number>; files: { name: string }[] }>(
        files,
        'manifest.json',
      );
      expect(manifest.files.map((f) => f.name)).toEqual(
        expect.arrayContaining(['notices.json', 'guardians.json']),
      );
      expect(manifest.counts).toMatchObject({ 'notices.json': 1, 'guardians.json': 1 });
      const notices = parse<NoticeRecord[]>(files, 'notices.json');
      expect(notices[0]).toMatchObject({ kind: 'breach' });
      expect(notices[0]!.body).toContain(description);
      if (who === 'guardian') expect(notices[0]!.title).toContain(`Child ${unique}`);
      const guardians = parse<GuardianRecord[]>(files, 'guardians.json');
      expect(guardians).toEqual([
        expect.objectContaining({
          role: who,
          childId: child.id,
          childName: `Child ${unique}`,
          guardianEmail: guardian.email,
          relationship: 'parent',
          state: 'approved',
          decidedAt: expect.any(String),
        }),
      ]);
    };
    const own = await exportOf(child);
    expect(own.res.status).toBe(200);
    check(own.files, 'child');
    const parent = await exportOf(guardian);
    check(parent.files, 'guardian');
    const ward = await call(`/api/guardian/wards/${child.id}/access`, { headers: as(guardian) });
    expect(ward.status).toBe(200);
    check(await unzip(new Uint8Array(await ward.arrayBuffer())), 'child');
  });

  it('lists the applications the person allowed (Open Badges API grants): client, scopes, granted, last renewed', async () => {
    const person = await signup('candidate', 'Grant Exporter');
    const none = await exportOf(person);
    expect(parse<unknown[]>(none.files, 'oauth-grants.json')).toEqual([]);

    const r = await register();
    const { params, verifier } = await authorise(person, r);
    const tokens = await oauth.processAuthorizationCodeResponse(
      r.as,
      r.client,
      await exchange(r, params, verifier),
    );
    const { files } = await exportOf(person);
    const [grant] = parse<Record<string, unknown>[]>(files, 'oauth-grants.json');
    expect(grant).toMatchObject({
      clientId: r.client.client_id,
      clientName: 'Test Wallet <b>',
      clientUri: 'https://wallet.example/',
      scope: expect.arrayContaining(['https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly']),
      lastRefreshedAt: null,
    });
    expect(Date.parse(String(grant!.grantedAt))).toBeGreaterThan(Date.now() - 60_000);
    expect(
      parse<{ counts: Record<string, number> }>(files, 'manifest.json').counts['oauth-grants.json'],
    ).toBe(1);
    // No token or secret of the grant is exported.
    expect(new TextDecoder().decode(files.get('oauth-grants.json'))).not.toContain(tokens.access_token);
    expect(new TextDecoder().decode(files.get('oauth-grants.json'))).not.toContain(r.secret);

    await oauth.processRefreshTokenResponse(
      r.as,
      r.client,
      await oauth.refreshTokenGrantRequest(
        r.as,
        r.client,
        oauth.ClientSecretBasic(r.secret),
        tokens.refresh_token!,
        http,
      ),
    );
    const renewed = parse<{ lastRefreshedAt: string | null }[]>(
      (await exportOf(person)).files,
      'oauth-grants.json',
    );
    expect(Date.parse(renewed[0]!.lastRefreshedAt!)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('needs a session', async () => {
    await expectProblem(await call('/api/dsr/access'), 401, 'unauthenticated');
  });

  it('streams page by page: a history longer than one page is complete', async () => {
    const person = await signup('candidate');
    const events = Array.from({ length: 230 }, (_, i) => ({
      userId: person.id,
      purpose: 'leaderboard' as const,
      action: i % 2 === 0 ? ('grant' as const) : ('revoke' as const),
      noticeVersion: 'v2',
    }));
    // 16 rows of 6 columns each: within D1's 100 bound parameters.
    for (let i = 0; i < events.length; i += 16)
      await db()
        .insert(consentEvents)
        .values(events.slice(i, i + 16));
    for (let i = 0; i < 3; i += 1)
      await call('/api/dsr/grievance', jsonInit('POST', { subject: `s${i}`, description: 'd' }, as(person)));
    const auditRows = Array.from({ length: 150 }, () => ({
      actorId: person.id,
      action: 'test.bulk',
      targetType: 'user',
      targetId: person.id,
    }));
    for (let i = 0; i < auditRows.length; i += 20)
      await db()
        .insert(auditLog)
        .values(auditRows.slice(i, i + 20));

    const { files } = await exportOf(person);
    expect(parse<{ history: unknown[] }>(files, 'consents.json').history).toHaveLength(230);
    const audit = parse<{ id: string }[]>(files, 'audit-log.json');
    expect(audit.length).toBe(150 + 3 + 1);
    expect(new Set(audit.map((a) => a.id)).size).toBe(audit.length);
  });
});
