/**
 * Issue 41, confirmed addresses: the signup's link (outbox, once, 24 hours, resend limited), what an
 * unconfirmed account cannot do, the stranger-guardian sequence, and an email change that waits for
 * the new address to be confirmed.
 */
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { getDb } from '../src/db/client';
import { emailConfirmations, jobs, users } from '../src/db/schema';
import { clock, resetClock } from '../src/lib/clock';
import { useLogLevel } from '../src/lib/log';
import {
  CONFIRMATION_SECRET_KEY,
  confirmationToken,
  emailConfirmationJob,
  forgetConfirmationSecret,
} from '../src/services/email-confirmations';
import { sendMail } from '../src/services/mail';
import { expireUnconfirmedSignups } from '../src/services/unconfirmed-signups';
import { latestConfirmationToken, openConfirmationLink } from './confirm';
import { certify, employerAt, signup } from './harness';
import {
  type Account,
  as,
  BASE,
  call,
  eventually,
  expectProblem,
  freshIp,
  jsonInit,
  sessionCookieFrom,
} from './helpers';

afterEach(() => {
  resetClock();
  vi.restoreAllMocks();
});

const DAY = 86_400_000;

/** A signup through the API, its address left unconfirmed (the harness confirms its own fixtures). */
async function unconfirmed(email: string, extra: Record<string, unknown> = {}): Promise<Account> {
  const password = 'a-long-enough-password';
  const res = await call(
    '/api/auth/signup',
    jsonInit(
      'POST',
      { email, password, name: 'Some Person', role: 'candidate', dateOfBirth: '1990-01-01', ...extra },
      { 'CF-Connecting-IP': freshIp() },
    ),
  );
  expect(res.status).toBe(201);
  const body = await res.json<{ user: { id: string; emailConfirmed: boolean } }>();
  expect(body.user.emailConfirmed).toBe(false);
  return { cookie: `session=${sessionCookieFrom(res)}`, id: body.user.id, email, password };
}

const fresh = (local = 'person') => `${local}-${crypto.randomUUID().slice(0, 8)}@mail.example`;

const me = async (account: Account) =>
  (await call('/api/me', { headers: as(account) })).json<{ email: string; emailConfirmed: boolean }>();

describe('the signup confirmation link', () => {
  it('is mailed through the outbox (no token at rest), confirms once, and is refused after 24 hours', async () => {
    const account = await unconfirmed(fresh());
    const db = getDb(env.DB);
    const [link] = await db
      .select()
      .from(emailConfirmations)
      .where(eq(emailConfirmations.userId, account.id));
    expect(link).toMatchObject({ email: account.email, purpose: 'signup', usedAt: null });
    const [job] = await db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'email_confirmation'), eq(jobs.subjectId, account.id)));
    // The job carries the link's id only; the stored hash is not the token.
    expect(job?.payload).toEqual({ confirmationId: link!.id });
    const token = await latestConfirmationToken(account.id);
    expect(JSON.stringify([link, job])).not.toContain(token);

    const confirm = () => call('/api/auth/email-confirmation', jsonInit('POST', { token }));
    const opened = await confirm();
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ email: account.email, purpose: 'signup' });
    expect(await me(account)).toMatchObject({ emailConfirmed: true });
    await expectProblem(await confirm(), 404, 'not-found');
    await expectProblem(
      await call('/api/me/email-confirmation', { method: 'POST', headers: as(account) }),
      409,
      'conflict',
    );

    const late = await unconfirmed(fresh());
    clock.now = () => new Date(Date.now() + DAY + 60_000);
    await expectProblem(await openConfirmationLink(late.id), 404, 'not-found');
    resetClock();
    expect(await me(late)).toMatchObject({ emailConfirmed: false });
    await expectProblem(
      await call('/api/auth/email-confirmation', jsonInit('POST', { token: 'vpc_not-a-real-token-at-all' })),
      404,
      'not-found',
    );
    const unknownPage = await call('/api/auth/email-confirmation?token=vpc_not-a-real-token-at-all', {
      headers: { accept: 'text/html' },
    });
    expect(unknownPage.status).toBe(404);
    expect(unknownPage.headers.get('content-type')).toContain('text/html');
    await expectProblem(
      await call('/api/auth/email-confirmation?token=vpc_not-a-real-token-at-all'),
      404,
      'not-found',
    );
  });

  it('resending is limited to 3 links an hour, the signup’s included', async () => {
    const account = await unconfirmed(fresh());
    const resend = () => call('/api/me/email-confirmation', { method: 'POST', headers: as(account) });
    for (let i = 0; i < 2; i++) expect((await resend()).status).toBe(202);
    const refused = await resend();
    await expectProblem(refused, 429, 'quota-exceeded');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Each link works on its own; the newest confirms.
    expect((await openConfirmationLink(account.id)).status).toBe(200);
    const status = await (await call('/api/me/email-confirmation', { headers: as(account) })).json();
    expect(status).toMatchObject({ email: account.email, confirmed: true, pendingEmail: null });
  });

  it('the log transport shows a link only on a local base URL, never in a deployment', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    useLogLevel('info'); // the tests log nothing by default (LOG_LEVEL=silent); dev and production log info
    onTestFinished(() => useLogLevel(env.LOG_LEVEL));
    const message = { to: 'a@b.example', subject: 'Confirm', text: 'https://x/?token=vpc_secret' };
    await sendMail({ PUBLIC_BASE_URL: 'https://api.example.com' }, message, {
      link: 'https://x/?token=vpc_secret',
    });
    expect(lines.join('\n')).not.toContain('vpc_secret');
    await sendMail({ PUBLIC_BASE_URL: 'http://localhost:8787' }, message, {
      link: 'http://localhost:8787/?token=vpc_local',
    });
    expect(lines.join('\n')).toContain('vpc_local');
    expect(lines.join('\n')).not.toContain('a@b.example');
  });
});

describe('the mailed link opens a page; only its button (a same-origin POST) or a JSON client confirms', () => {
  const linkOf = (token: string) => `/api/auth/email-confirmation?token=${encodeURIComponent(token)}`;

  it('a GET (a mail scanner’s prefetch, a stray click), even repeated, changes nothing', async () => {
    const account = await unconfirmed(fresh());
    const token = await latestConfirmationToken(account.id);
    for (let i = 0; i < 3; i++) {
      const page = await call(linkOf(token));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
      const html = await page.text();
      expect(html).toContain('method="post" action="/api/auth/email-confirmation?lang=en"');
      expect(html).toContain(`name="token" value="${token}"`);
      expect(html).toContain(account.email);
    }
    const head = await call(linkOf(token), { method: 'HEAD' });
    expect(head.status).toBeLessThan(500);
    expect(await me(account)).toMatchObject({ emailConfirmed: false });
    const [row] = await getDb(env.DB)
      .select()
      .from(emailConfirmations)
      .where(eq(emailConfirmations.userId, account.id));
    expect(row?.usedAt).toBeNull();
  });

  it('the page’s form confirms from this site only: another origin, or none, is a 403 and changes nothing', async () => {
    const account = await unconfirmed(fresh());
    const token = await latestConfirmationToken(account.id);
    const form = (headers: Record<string, string>) =>
      call('/api/auth/email-confirmation', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ token }).toString(),
      });
    for (const headers of [
      { origin: 'https://attacker.example' },
      {},
      { 'sec-fetch-site': 'cross-site' },
    ] as Record<string, string>[]) {
      const refused = await form(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.headers.get('content-type')).toContain('text/html');
    }
    expect(await me(account)).toMatchObject({ emailConfirmed: false });
    const done = await form({ origin: BASE });
    expect(done.status).toBe(200);
    expect(done.headers.get('content-type')).toContain('text/html');
    expect(await done.text()).toContain('confirmed');
    expect(await me(account)).toMatchObject({ emailConfirmed: true });
    // Used: the link's page says so, and the form is refused with a page.
    expect((await call(linkOf(token), { headers: { accept: 'text/html' } })).status).toBe(404);
    expect((await form({ 'sec-fetch-site': 'same-origin' })).status).toBe(404);
  });

  it('in Hindi by Accept-Language: the page, its form (which keeps the language), the confirmed page and the refusals', async () => {
    const account = await unconfirmed(fresh());
    const token = await latestConfirmationToken(account.id);
    const page = await call(linkOf(token), { headers: { accept: 'text/html', 'accept-language': 'hi' } });
    expect(page.headers.get('content-language')).toBe('hi');
    const html = await page.text();
    expect(html).toContain('<html lang="hi">');
    expect(html).toContain('method="post" action="/api/auth/email-confirmation?lang=hi"');
    expect(html).toContain('id="footer-account">साइन इन करें<');
    // Opened where the account is signed in, the page's header and footer say so.
    const signedIn = await call(linkOf(token), { headers: { accept: 'text/html', cookie: account.cookie } });
    expect(await signedIn.text()).toContain('id="footer-account">Your certificates<');
    const post = (headers: Record<string, string>) =>
      call('/api/auth/email-confirmation?lang=hi', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ token }).toString(),
      });
    const refused = await (await post({ origin: 'https://attacker.example' })).text();
    expect(refused).toContain('<html lang="hi">');
    expect(refused).toContain('यह फ़ॉर्म केवल इसी साइट के अपने पेज से भेजा जा सकता है');
    const done = await post({ origin: BASE });
    expect(done.status).toBe(200);
    const confirmed = await done.text();
    expect(confirmed).toContain('<html lang="hi">');
    expect(confirmed).toContain('ईमेल पता पक्का हो गया');
    const used = await call(linkOf(token), { headers: { accept: 'text/html', 'accept-language': 'hi' } });
    expect(used.status).toBe(404);
    expect(await used.text()).toContain('इस लिंक का उपयोग नहीं हो सकता');
  });
});

describe('the links’ own secret', () => {
  it('signup works without a certificate signing key, and a key rotation changes no link', async () => {
    const { signUp } = await import('../src/services/accounts');
    const email = fresh('keyless');
    const input = {
      email,
      password: 'a-long-enough-password',
      name: 'Keyless Person',
      role: 'candidate' as const,
      dateOfBirth: '1990-01-01',
    };
    const { user } = await signUp(getDb(env.DB), { ...env, CERT_SIGNING_KEY: '' } as Env, input);
    const [row] = await getDb(env.DB)
      .select()
      .from(emailConfirmations)
      .where(eq(emailConfirmations.userId, user.id));
    expect(row).toBeTruthy();
    const a = await confirmationToken({ ...env, CERT_SIGNING_KEY: 'one' } as Env, row!.id);
    const b = await confirmationToken({ ...env, CERT_SIGNING_KEY: 'another' } as Env, row!.id);
    expect(a).toBe(b);
    const res = await call('/api/auth/email-confirmation', jsonInit('POST', { token: a }));
    expect(res.status).toBe(200);
  });

  it('a link whose secret changed before it was mailed is re-hashed when mailed, and works', async () => {
    const account = await unconfirmed(fresh());
    const db = getDb(env.DB);
    const [row] = await db.select().from(emailConfirmations).where(eq(emailConfirmations.userId, account.id));
    await env.CACHE.delete(CONFIRMATION_SECRET_KEY);
    forgetConfirmationSecret();
    await emailConfirmationJob.run({ confirmationId: row!.id }, { env, db, now: new Date() } as never);
    const [after] = await db.select().from(emailConfirmations).where(eq(emailConfirmations.id, row!.id));
    expect(after!.tokenHash).not.toBe(row!.tokenHash);
    expect((await openConfirmationLink(account.id)).status).toBe(200);
  });
});

describe('unconfirmed signups expire', () => {
  it('an account left unconfirmed for 7 days is closed (erasure requested, audited), its address free again', async () => {
    const email = fresh('squat');
    const squatter = await unconfirmed(email);
    const confirmedOne = await unconfirmed(fresh('kept'));
    expect((await openConfirmationLink(confirmedOne.id)).status).toBe(200);
    const db = getDb(env.DB);
    expect(await expireUnconfirmedSignups(db, env, new Date(Date.now() + 6 * DAY))).toBe(0);
    const closed = await expireUnconfirmedSignups(db, env, new Date(Date.now() + 7 * DAY + 60_000));
    expect(closed).toBeGreaterThanOrEqual(1);
    const [user] = await db.select().from(users).where(eq(users.id, squatter.id));
    expect(user!.disabledAt).not.toBeNull();
    const [kept] = await db.select().from(users).where(eq(users.id, confirmedOne.id));
    expect(kept!.disabledAt).toBeNull();
    const audit = await env.DB.prepare(
      "SELECT 1 FROM audit_log WHERE action = 'signup.expired' AND target_id = ?",
    )
      .bind(squatter.id)
      .all();
    expect(audit.results).toHaveLength(1);
    expect((await call('/api/me', { headers: as(squatter) })).status).toBe(401);
    // Once the erasure cascade has run, the owner of the address can sign up with it.
    await eventually(async () => {
      const res = await call(
        '/api/auth/signup',
        jsonInit(
          'POST',
          {
            email,
            password: 'another-long-password',
            name: 'Real Owner',
            role: 'candidate',
            dateOfBirth: '1990-01-01',
          },
          { 'CF-Connecting-IP': freshIp() },
        ),
      );
      return res.status === 201 ? true : undefined;
    }, 20_000);
  });
});

describe('a child’s guardian is the confirmed owner of the address the child named', () => {
  it('a stranger who signs up with the named address can neither see nor approve the request until confirmed', async () => {
    const parentEmail = fresh('parent1');
    const child = await signup('candidate', 'Young Person', undefined, {
      dateOfBirth: `${new Date().getUTCFullYear() - 15}-01-01`,
      guardianEmail: parentEmail,
    });
    // Someone signs up with the named address (self-declared adult) and never confirms it.
    const stranger = await unconfirmed(parentEmail);
    const listed = await expectProblem(
      await call('/api/guardian/requests', { headers: as(stranger) }),
      403,
      'email-unconfirmed',
    );
    expect(JSON.stringify(listed)).not.toContain(child.email);
    const [request] = await getDb(env.DB)
      .select({ id: emailConfirmations.id })
      .from(emailConfirmations)
      .where(eq(emailConfirmations.userId, child.id));
    expect(request).toBeDefined();
    const requestId = (
      await env.DB.prepare('SELECT id FROM guardian_requests WHERE child_id = ?')
        .bind(child.id)
        .first<{ id: string }>()
    )?.id;
    const approval = await call(
      `/api/guardian/requests/${requestId}/approve`,
      jsonInit('POST', { relationship: 'parent' }, as(stranger)),
    );
    const problem = await expectProblem(approval, 403, 'email-unconfirmed');
    expect(problem.detail).toMatch(/Confirm your email address/);
    // The child is still behind the gate: nothing of theirs can be read or changed.
    await expectProblem(
      await call('/api/dsr/access', { headers: as(child) }),
      403,
      'guardian-consent-required',
    );

    // The owner of the address opens the link mailed to it: now they are the guardian.
    expect((await openConfirmationLink(stranger.id)).status).toBe(200);
    const approved = await call(
      `/api/guardian/requests/${requestId}/approve`,
      jsonInit('POST', { relationship: 'parent' }, as(stranger)),
    );
    expect(approved.status).toBe(200);
    expect((await call('/api/guardian/wards', { headers: as(stranger) })).status).toBe(200);
  });

  it('an approval stops counting when the guardian’s address is no longer the one named', async () => {
    const guardian = await signup('candidate', 'Parent Person');
    const child = await signup('candidate', 'Young Person', undefined, {
      dateOfBirth: `${new Date().getUTCFullYear() - 15}-01-01`,
      guardianEmail: guardian.email,
    });
    const requestId = (
      await env.DB.prepare('SELECT id FROM guardian_requests WHERE child_id = ?')
        .bind(child.id)
        .first<{ id: string }>()
    )?.id;
    expect(
      (
        await call(
          `/api/guardian/requests/${requestId}/approve`,
          jsonInit('POST', { relationship: 'parent' }, as(guardian)),
        )
      ).status,
    ).toBe(200);
    expect((await call(`/api/guardian/wards/${child.id}/access`, { headers: as(guardian) })).status).toBe(
      200,
    );
    // The guardian's address loses its confirmation (e.g. the account was made before addresses were confirmed).
    await env.DB.prepare('UPDATE users SET email_confirmed_at = NULL WHERE id = ?').bind(guardian.id).run();
    await expectProblem(
      await call(`/api/guardian/wards/${child.id}/access`, { headers: as(guardian) }),
      404,
      'not-found',
    );
    await expectProblem(
      await call('/api/dsr/access', { headers: as(child) }),
      403,
      'guardian-consent-required',
    );
  });
});

describe('a guardian who moves to another address', () => {
  it('stops standing for the child once the new address is confirmed (it is no longer the one named)', async () => {
    const guardian = await signup('candidate', 'Parent Person');
    const child = await signup('candidate', 'Young Person', undefined, {
      dateOfBirth: `${new Date().getUTCFullYear() - 15}-01-01`,
      guardianEmail: guardian.email,
    });
    const requestId = (
      await env.DB.prepare('SELECT id FROM guardian_requests WHERE child_id = ?')
        .bind(child.id)
        .first<{ id: string }>()
    )?.id;
    const approve = await call(
      `/api/guardian/requests/${requestId}/approve`,
      jsonInit('POST', { relationship: 'parent' }, as(guardian)),
    );
    expect(approve.status).toBe(200);
    const moved = fresh('moved');
    expect(
      (await call('/api/dsr/correction', jsonInit('PATCH', { email: moved }, as(guardian)))).status,
    ).toBe(200);
    // Until the new address is confirmed the old one, the named one, stands.
    expect((await call(`/api/guardian/wards/${child.id}/access`, { headers: as(guardian) })).status).toBe(
      200,
    );
    expect((await openConfirmationLink(guardian.id, 'change')).status).toBe(200);
    await expectProblem(
      await call(`/api/guardian/wards/${child.id}/access`, { headers: as(guardian) }),
      404,
      'not-found',
    );
    await expectProblem(
      await call('/api/dsr/access', { headers: as(child) }),
      403,
      'guardian-consent-required',
    );
  });
});

describe('an unconfirmed account', () => {
  it('otherwise uses the service as before: briefs, submissions, ratings and the certificate they earn', async () => {
    const employer = await unconfirmed(fresh('recruiter'), {
      role: 'employer',
      organisation: { name: `Everyday Co ${crypto.randomUUID().slice(0, 6)}` },
    });
    const candidate = await unconfirmed(fresh('candidate'));
    const { certificateNo } = await certify(employer, candidate);
    expect((await call(`/api/verify/${certificateNo}`)).status).toBe(200);
    for (const account of [employer, candidate])
      expect(await me(account)).toMatchObject({ emailConfirmed: false });
  }, 60_000);

  it('cannot prove a domain, and an invitation is accepted only when the invited address is confirmed', async () => {
    const domain = `${crypto.randomUUID().slice(0, 8)}.example`;
    const owner = await employerAt(domain);
    const password = 'a-long-enough-password';
    const email = `recruiter-${crypto.randomUUID().slice(0, 6)}@${domain}`;
    const inv = await call('/api/me/organisation/invitations', jsonInit('POST', { email }, as(owner)));
    const { code } = await inv.json<{ code: string }>();
    const res = await call(
      '/api/auth/signup',
      jsonInit(
        'POST',
        {
          email,
          password,
          name: 'Second',
          role: 'employer',
          dateOfBirth: '1990-01-01',
          invitationCode: code,
        },
        { 'CF-Connecting-IP': freshIp() },
      ),
    );
    expect(res.status).toBe(201);
    const { user } = await res.json<{ user: { id: string; organisation: null } }>();
    expect(user.organisation).toBeNull();
    const invited: Account = { cookie: `session=${sessionCookieFrom(res)}`, id: user.id, email, password };
    await expectProblem(
      await call('/api/me/organisation/domain-verification', jsonInit('POST', { domain }, as(invited))),
      403,
      'email-unconfirmed',
    );
    const opened = await openConfirmationLink(user.id);
    expect(await opened.json()).toMatchObject({ joinedOrganisationId: expect.any(String) });
    const joined = await (await call('/api/me', { headers: as(invited) })).json<{
      organisation: { id: string };
    }>();
    const ownerOrg = await (await call('/api/me', { headers: as(owner) })).json<{
      organisation: { id: string };
    }>();
    expect(joined.organisation.id).toBe(ownerOrg.organisation.id);
    expect(
      (await call('/api/me/organisation/domain-verification', jsonInit('POST', { domain }, as(invited))))
        .status,
    ).toBe(201);
  });

  it('cannot change its email; a confirmed one’s new address takes effect only once confirmed there', async () => {
    const account = await unconfirmed(fresh());
    const change = (who: Account, email: string) =>
      call('/api/dsr/correction', jsonInit('PATCH', { email }, as(who)));
    await expectProblem(await change(account, fresh('new')), 403, 'email-unconfirmed');
    expect((await openConfirmationLink(account.id)).status).toBe(200);

    const next = fresh('new');
    const asked = await change(account, next);
    expect(asked.status).toBe(200);
    expect(await asked.json()).toMatchObject({
      profile: { email: account.email },
      request: { state: 'in_progress' },
      pendingEmail: next,
    });
    expect(await me(account)).toMatchObject({ email: account.email, emailConfirmed: true });
    const opened = await openConfirmationLink(account.id, 'change');
    expect(await opened.json()).toMatchObject({ email: next, purpose: 'change' });
    expect(await me(account)).toMatchObject({ email: next, emailConfirmed: true });
    const requests = await (await call('/api/me/dsr-requests', { headers: as(account) })).json<{
      items: { kind: string; state: string }[];
    }>();
    expect(requests.items.find((r) => r.kind === 'correction')).toMatchObject({ state: 'completed' });
    // Sign-in is at the new address now.
    const login = await call(
      '/api/auth/login',
      jsonInit('POST', { email: next, password: account.password }, { 'CF-Connecting-IP': freshIp() }),
    );
    expect(login.status).toBe(200);
  });
});

describe('a holder’s identifier names a confirmed address only (PRODUCT.md “Accounts and issuers”)', () => {
  it('is left out of the credentials until the address is confirmed, and signed in when it is', async () => {
    const holder = await unconfirmed(fresh('holder'));
    const employer = await signup('employer', 'Recruiter');
    const { certificateNo } = await certify(employer, holder);
    const subject = async () => {
      const { credential } = await (await call(`/api/verify/${certificateNo}`)).json<{
        credential: { jwt: string };
      }>();
      const payload = JSON.parse(
        atob(credential.jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')),
      ) as { credentialSubject: { identifier?: { identityHash: string; salt: string }[] } };
      return payload.credentialSubject;
    };
    const set = await call('/api/me/credential-identifier', jsonInit('PUT', { enabled: true }, as(holder)));
    expect(set.status).toBe(200);
    const state = await set.json<{ enabled: boolean; included: boolean; note: string | null }>();
    expect(state).toMatchObject({ enabled: true, included: false });
    expect(state.note).toMatch(/until your email address is confirmed/);
    expect((await subject()).identifier).toBeUndefined();

    // Opening the link signs the credentials again, with the hash of the now confirmed address.
    expect((await openConfirmationLink(holder.id)).status).toBe(200);
    const [identifier] = (await subject()).identifier ?? [];
    const digest = await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode(`${holder.email}${identifier?.salt}`),
    );
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(identifier?.identityHash).toBe(`sha256$${hex}`);
    expect(await (await call('/api/me/credential-identifier', { headers: as(holder) })).json()).toEqual({
      enabled: true,
      included: true,
      note: null,
    });
  }, 60_000);
});
