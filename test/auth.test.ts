import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { PBKDF2_ITERATIONS, PBKDF2_MAX_ITERATIONS, sha256Hex } from '../src/domain/secrets';
import { DEMO_BRIEF, loginAdmin, signup } from './harness';
import { as, call, expectProblem, jsonInit, ORIGIN, sessionCookieFrom } from './helpers';

describe('signup', () => {
  it('creates an account, returns 201 with the profile and a hardened session cookie', async () => {
    const res = await call(
      '/api/auth/signup',
      jsonInit('POST', {
        email: 'Meera@Example.test',
        password: 'correct horse battery',
        name: 'Meera',
        role: 'employer',
        dateOfBirth: '1990-01-01',
      }),
    );
    expect(res.status).toBe(201);
    const body = await res.json<{ user: Record<string, unknown>; expiresAt: string }>();
    expect(body.user).toMatchObject({ email: 'meera@example.test', name: 'Meera', role: 'employer' });
    expect(body.user).not.toHaveProperty('passwordHash');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43};/);
    for (const attr of ['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/', 'Max-Age='])
      expect(cookie).toContain(attr);
  });

  it('stores only the SHA-256 of the session token and a PBKDF2 hash of the password', async () => {
    const res = await call(
      '/api/auth/signup',
      jsonInit('POST', {
        email: 'hash@example.test',
        password: 'correct horse battery',
        name: 'H',
        role: 'candidate',
        dateOfBirth: '1990-01-01',
      }),
    );
    const token = sessionCookieFrom(res)!;
    const user = await env.DB.prepare('SELECT * FROM users WHERE email = ?')
      .bind('hash@example.test')
      .first<Record<string, unknown>>();
    expect(user?.password_iterations).toBe(100_000);
    expect(JSON.stringify(user)).not.toContain('correct horse battery');
    const sessions = await env.DB.prepare('SELECT * FROM sessions WHERE user_id = ?').bind(user?.id).all();
    expect(sessions.results).toHaveLength(1);
    expect(JSON.stringify(sessions.results)).not.toContain(token);
    expect(sessions.results[0]?.token_hash).toBe(await sha256Hex(token));
  });

  it('never exceeds the production PBKDF2 cap of 100,000 iterations', () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    expect(PBKDF2_MAX_ITERATIONS).toBe(100_000);
  });

  it('refuses a duplicate email (case-insensitive) with 409', async () => {
    const body = {
      email: 'dup@example.test',
      password: 'correct horse battery',
      name: 'D',
      role: 'candidate',
      dateOfBirth: '1990-01-01',
    };
    expect((await call('/api/auth/signup', jsonInit('POST', body))).status).toBe(201);
    const again = await call('/api/auth/signup', jsonInit('POST', { ...body, email: 'DUP@example.test' }));
    await expectProblem(again, 409, 'conflict');
  });

  it('cannot create an admin: role admin is a 422, and the admin email is taken', async () => {
    const admin = await call(
      '/api/auth/signup',
      jsonInit('POST', {
        email: 'x@example.test',
        password: 'correct horse battery',
        name: 'X',
        role: 'admin',
      }),
    );
    const problem = await expectProblem(admin, 422, 'validation-failed');
    expect(problem.errors?.map((e) => e.pointer)).toContain('#/role');
    const squat = await call(
      '/api/auth/signup',
      jsonInit('POST', {
        email: 'admin@test.local',
        password: 'correct horse battery',
        name: 'X',
        role: 'employer',
        dateOfBirth: '1990-01-01',
      }),
    );
    await expectProblem(squat, 409, 'conflict');
  });

  it('validates email and minimum password length, pointing at each field', async () => {
    const res = await call(
      '/api/auth/signup',
      jsonInit('POST', { email: 'not-an-email', password: 'short', name: '', role: 'candidate' }),
    );
    const problem = await expectProblem(res, 422, 'validation-failed');
    expect(problem.errors?.map((e) => e.pointer).sort()).toEqual([
      '#/dateOfBirth',
      '#/email',
      '#/name',
      '#/password',
    ]);
  });
});

describe('login', () => {
  it('logs in with the right password and sets the session cookie', async () => {
    const account = await signup('candidate');
    const res = await call(
      '/api/auth/login',
      jsonInit('POST', { email: account.email, password: account.password }),
    );
    expect(res.status).toBe(200);
    expect(sessionCookieFrom(res)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const account = await signup('candidate');
    const wrong = await call(
      '/api/auth/login',
      jsonInit('POST', { email: account.email, password: 'not-the-password' }),
    );
    const unknown = await call(
      '/api/auth/login',
      jsonInit('POST', { email: 'nobody@example.test', password: 'not-the-password' }),
    );
    const a = await expectProblem(wrong, 401, 'unauthenticated');
    const b = await expectProblem(unknown, 401, 'unauthenticated');
    const strip = ({ requestId: _r, ...rest }: typeof a) => rest;
    expect(strip(a)).toEqual(strip(b));
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('creates the first admin from ADMIN_EMAIL/ADMIN_PASSWORD, and re-enables it', async () => {
    const admin = await loginAdmin();
    const me = await (await call('/api/me', { headers: as(admin) })).json<{ role: string; email: string }>();
    expect(me).toMatchObject({ role: 'admin', email: 'admin@test.local' });

    await env.DB.prepare('UPDATE users SET disabled_at = ? WHERE id = ?').bind(Date.now(), admin.id).run();
    expect((await call('/api/me', { headers: as(admin) })).status).toBe(401);
    const again = await loginAdmin();
    expect(again.id).toBe(admin.id);
    expect((await call('/api/me', { headers: as(again) })).status).toBe(200);
  });

  it('does not grant admin for the admin email with another password', async () => {
    await loginAdmin();
    const res = await call(
      '/api/auth/login',
      jsonInit('POST', { email: 'admin@test.local', password: 'guess-guess-guess' }),
    );
    await expectProblem(res, 401, 'unauthenticated');
  });
});

describe('sessions', () => {
  it('GET /api/me returns the profile; without a cookie or with a bad one it is 401', async () => {
    const account = await signup('employer', 'Priya');
    const res = await call('/api/me', { headers: as(account) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: account.id,
      email: account.email,
      name: 'Priya',
      role: 'employer',
    });
    await expectProblem(await call('/api/me'), 401, 'unauthenticated');
    await expectProblem(
      await call('/api/me', { headers: { cookie: 'session=forged' } }),
      401,
      'unauthenticated',
    );
  });

  it('logout invalidates the token at once and clears the cookie', async () => {
    const account = await signup('candidate');
    const out = await call('/api/auth/logout', { method: 'POST', headers: as(account) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/session=;.*Max-Age=0/);
    await expectProblem(await call('/api/me', { headers: as(account) }), 401, 'unauthenticated');
    await expectProblem(
      await call('/api/auth/logout', { method: 'POST', headers: as(account) }),
      401,
      'unauthenticated',
    );
  });

  it('refuses an expired session and slides one that is past half its life', async () => {
    const account = await signup('candidate');
    const hash = await sha256Hex(account.cookie.slice('session='.length));
    const soon = Date.now() + 60 * 60 * 1000;
    await env.DB.prepare('UPDATE sessions SET expires_at = ? WHERE token_hash = ?').bind(soon, hash).run();
    const renewed = await call('/api/me', { headers: as(account) });
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get('set-cookie')).toContain('session=');
    const row = await env.DB.prepare('SELECT expires_at FROM sessions WHERE token_hash = ?')
      .bind(hash)
      .first<{ expires_at: number }>();
    expect(row!.expires_at).toBeGreaterThan(soon + 24 * 60 * 60 * 1000);

    await env.DB.prepare('UPDATE sessions SET expires_at = ? WHERE token_hash = ?')
      .bind(Date.now() - 1, hash)
      .run();
    await expectProblem(await call('/api/me', { headers: as(account) }), 401, 'unauthenticated');
  });
});

describe('CSRF on cookie-authenticated unsafe methods', () => {
  it('refuses a foreign Origin and a missing Origin with 403', async () => {
    const account = await signup('candidate');
    const foreign = await call('/api/auth/logout', {
      method: 'POST',
      headers: { cookie: account.cookie, origin: 'https://evil.example' },
    });
    await expectProblem(foreign, 403, 'forbidden');
    const none = await call('/api/auth/logout', { method: 'POST', headers: { cookie: account.cookie } });
    await expectProblem(none, 403, 'forbidden');
    // The session survived both attempts.
    expect((await call('/api/me', { headers: as(account) })).status).toBe(200);
  });

  it('accepts the service origin, a configured origin and Sec-Fetch-Site: same-origin', async () => {
    const variants: Record<string, string>[] = [
      { origin: ORIGIN },
      { origin: 'http://127.0.0.1:8787' },
      { 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of variants) {
      const account = await signup('candidate');
      const res = await call('/api/auth/logout', {
        method: 'POST',
        headers: { cookie: account.cookie, ...headers },
      });
      expect(res.status).toBe(204);
    }
  });

  it('requires a JSON body on cookie-authenticated writes (415 otherwise)', async () => {
    const admin = await loginAdmin();
    const res = await call('/api/admin/api-keys', {
      method: 'POST',
      headers: { ...as(admin), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x&scopes=integrity:check',
    });
    await expectProblem(res, 415, 'unsupported-media-type');
  });
});

describe('names shown publicly cannot hide characters', () => {
  const signupAs = (name: string, organisation?: string) =>
    call(
      '/api/auth/signup',
      jsonInit('POST', {
        email: `shown-${crypto.randomUUID().slice(0, 8)}@example.test`,
        password: 'a-long-enough-password',
        name,
        role: organisation ? 'employer' : 'candidate',
        dateOfBirth: '1990-01-01',
        ...(organisation ? { organisation: { name: organisation } } : {}),
      }),
    );
  const refused = async (res: Response, pointer: string, code: string) => {
    const problem = await expectProblem(res, 422, 'validation-failed');
    expect(problem.errors).toEqual([{ pointer, detail: expect.stringContaining(`U+${code}`) }]);
  };

  it('refuses bidi overrides, zero-width spaces and controls in display names, organisation names and brief titles (422)', async () => {
    await refused(await signupAs('\u202etset Admin'), '#/name', '202E');
    await refused(await signupAs('Ravi', 'Goo\u200bgle Inc'), '#/organisation/name', '200B');
    const person = await signup('candidate', 'Ravi Kumar');
    await refused(
      await call('/api/dsr/correction', jsonInit('PATCH', { name: 'Ravi \u0000 Kumar' }, as(person))),
      '#/name',
      '0000',
    );
    const employer = await signup('employer', 'Recruiter');
    await refused(
      await call('/api/me/organisation', jsonInit('PATCH', { name: 'Acme\u0007' }, as(employer))),
      '#/name',
      '0007',
    );
    const brief = await call(
      '/api/briefs',
      jsonInit('POST', { ...DEMO_BRIEF, title: 'Build \u2066an API\u2069' }, as(employer)),
    );
    await refused(brief, '#/title', '2066');
  });

  it('refuses U+FFFD, non-characters and lone surrogates in every publicly shown name, and stores nothing (issue 41)', async () => {
    // "Bad �� Name" is what a lenient decoder made of malformed bytes; a correction once stored it.
    const cases: [string, string][] = [
      ['Bad \uFFFD\uFFFD Name', 'FFFD'],
      ['Org \uFDD0', 'FDD0'],
      ['Org \uFFFE', 'FFFE'],
      ['Org \u{10FFFF}', '10FFFF'],
      ['Org \uD800', 'D800'],
    ];
    const person = await signup('candidate', 'Ravi Kumar');
    const employer = await signup('employer', 'Recruiter');
    const before = {
      me: await (await call('/api/me', { headers: as(person) })).json(),
      organisation: await (await call('/api/me/organisation', { headers: as(employer) })).json(),
    };
    for (const [text, code] of cases) {
      // Holders: at signup and by correction; employers' organisations: at signup and by rename.
      await refused(await signupAs(text), '#/name', code);
      await refused(await signupAs('Ravi', text), '#/organisation/name', code);
      await refused(
        await call('/api/dsr/correction', jsonInit('PATCH', { name: text }, as(person))),
        '#/name',
        code,
      );
      await refused(
        await call('/api/me/organisation', jsonInit('PATCH', { name: text }, as(employer))),
        '#/name',
        code,
      );
      // The leaderboard alias and a brief's title.
      await refused(
        await call('/api/me', jsonInit('PATCH', { publicAlias: text }, as(person))),
        '#/publicAlias',
        code,
      );
      await refused(
        await call('/api/briefs', jsonInit('POST', { ...DEMO_BRIEF, title: text }, as(employer))),
        '#/title',
        code,
      );
    }
    expect(await (await call('/api/me', { headers: as(person) })).json()).toEqual(before.me);
    expect(await (await call('/api/me/organisation', { headers: as(employer) })).json()).toEqual(
      before.organisation,
    );
    const briefs = await (await call('/api/me/briefs', { headers: as(employer) })).json<{
      items: unknown[];
    }>();
    expect(briefs.items).toEqual([]);
  });

  it('keeps the joiners Indic scripts and Persian need to spell names', async () => {
    const name = 'क्\u200dष Kumar'; // a zero-width joiner inside a Devanagari conjunct
    const res = await signupAs(name);
    expect(res.status).toBe(201);
    expect((await res.json<{ user: { name: string } }>()).user.name).toBe(name);
  });
});

describe('session 401s name their challenge (RFC 9110 §11.6.1)', () => {
  const CHALLENGE = 'Cookie realm="session", form-action="/api/auth/login", cookie-name="session"';

  it('no cookie, an unknown cookie, a logged-out session and a failed login all carry it', async () => {
    const person = await signup('candidate');
    await call('/api/auth/logout', jsonInit('POST', {}, as(person)));
    const cases: [string, RequestInit][] = [
      ['/api/me', {}],
      ['/api/me', { headers: { cookie: 'session=not-a-session' } }],
      ['/api/me', { headers: as(person) }],
      ['/api/me/certificates', { headers: as(person) }],
      [
        '/api/auth/login',
        jsonInit(
          'POST',
          { email: person.email, password: 'not-the-password' },
          { 'CF-Connecting-IP': '198.51.100.77' },
        ),
      ],
    ];
    for (const [path, init] of cases) {
      const res = await call(path, init);
      expect(res.headers.get('WWW-Authenticate'), path).toBe(CHALLENGE);
      await expectProblem(res, 401, 'unauthenticated');
    }
    // A signed-in person without the role is refused with 403, and no challenge.
    const candidate = await signup('candidate');
    const forbidden = await call('/api/admin/organisations', { headers: as(candidate) });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('WWW-Authenticate')).toBeNull();
  });
});
