import { describe, expect, it } from 'vitest';
import { CONSENT_PURPOSES } from '../src/db/schema';
import { CURRENT_NOTICE_VERSION } from '../src/domain/consent-notices';
import { DPO_DEFAULTS } from '../src/domain/dpo';
import { NOTICE_LANGUAGE_CODES } from '../src/domain/notice-languages';
import { signup } from './harness';
import { as, call, expectProblem, jsonInit } from './helpers';

type Notice = {
  version: string;
  language: string;
  languages: string[];
  dpo: string;
  fiduciary: string;
  purposes: { purpose: string; title: string; withdraw: string; complain: string }[];
  grievance: string;
};

describe('GET /api/dpo (DPDP §8(9), Rule 9)', () => {
  it('publishes the Data Protection Officer’s business contact from configuration, with no sign-in', async () => {
    const res = await call('/api/dpo');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('public');
    const dpo = await res.json<{
      name: string;
      email: string;
      address: string;
      grievance: string;
      board: string;
    }>();
    // wrangler.toml [vars] holds the dev contact; tests read the same configuration.
    expect(dpo).toMatchObject({
      name: DPO_DEFAULTS.name,
      email: DPO_DEFAULTS.email,
      address: DPO_DEFAULTS.address,
    });
    expect(dpo.grievance).toContain('/api/dsr/grievance');
    expect(dpo.board).toContain('Data Protection Board');
  });

  it('is linked from the API description (/docs) and from every notice', async () => {
    const yaml = await (await call('/openapi.yaml')).text();
    expect(yaml).toContain('(/api/dpo)');
    for (const lang of ['en', 'hi']) {
      const notice = await (
        await call(`/api/consent/notices/${CURRENT_NOTICE_VERSION}?lang=${lang}`)
      ).json<Notice>();
      expect(notice.dpo).toBe('/api/dpo');
      expect(notice.fiduciary).toContain('/api/dpo');
    }
  });
});

describe('Consent notices in Indian languages (DPDP §5(3))', () => {
  it('serves the current notice in Hindi with Content-Language, every purpose translated and in the same order', async () => {
    const en = await (await call(`/api/consent/notices/${CURRENT_NOTICE_VERSION}`)).json<Notice>();
    const res = await call(`/api/consent/notices/${CURRENT_NOTICE_VERSION}?lang=hi`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-language')).toBe('hi');
    const hi = await res.json<Notice>();
    expect(hi.language).toBe('hi');
    expect(hi.languages).toEqual(['en', 'hi']);
    expect(hi.purposes.map((p) => p.purpose)).toEqual(en.purposes.map((p) => p.purpose));
    expect(hi.purposes.map((p) => p.purpose).sort()).toEqual([...CONSENT_PURPOSES].sort());
    for (const p of hi.purposes) {
      expect(p.title).toMatch(/[\u0900-\u097F]/); // Devanagari
      expect(p.title).not.toBe(en.purposes.find((e) => e.purpose === p.purpose)!.title);
      expect(p.withdraw).toContain('POST /api/consent');
    }
  });

  it('states per purpose how to withdraw and how to complain to the Board', async () => {
    const res = await call(`/api/consent/notices/${CURRENT_NOTICE_VERSION}`);
    expect(res.headers.get('content-language')).toBe('en');
    const en = await res.json<Notice>();
    for (const p of en.purposes) {
      expect(p.withdraw).toContain('POST /api/consent');
      expect(p.complain).toContain('Data Protection Board');
      expect(p.complain).toContain('/api/dpo');
    }
  });

  it('answers a language of the Eighth Schedule without a translation yet in English, and says so', async () => {
    expect(NOTICE_LANGUAGE_CODES).toHaveLength(23); // English and the 22 languages
    const res = await call(`/api/consent/notices/${CURRENT_NOTICE_VERSION}?lang=ta`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-language')).toBe('en');
    expect((await res.json<Notice>()).language).toBe('en');
  });

  it('refuses a language outside the schedule with 400', async () => {
    await expectProblem(
      await call(`/api/consent/notices/${CURRENT_NOTICE_VERSION}?lang=fr`),
      400,
      'invalid-parameters',
    );
  });

  it('records on the receipt the language the person read, and refuses one the notice is not in', async () => {
    const person = await signup('candidate');
    const res = await call(
      '/api/consent',
      jsonInit(
        'POST',
        { purpose: 'leaderboard', action: 'grant', noticeVersion: CURRENT_NOTICE_VERSION, language: 'hi' },
        as(person),
      ),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ purpose: 'leaderboard', language: 'hi' });
    const plain = await call(
      '/api/consent',
      jsonInit(
        'POST',
        { purpose: 'leaderboard', action: 'revoke', noticeVersion: CURRENT_NOTICE_VERSION },
        as(person),
      ),
    );
    expect(await plain.json()).toMatchObject({ language: 'en' });
    const untranslated = await call(
      '/api/consent',
      jsonInit(
        'POST',
        { purpose: 'leaderboard', action: 'grant', noticeVersion: CURRENT_NOTICE_VERSION, language: 'ta' },
        as(person),
      ),
    );
    const problem = await expectProblem(untranslated, 422, 'validation-failed');
    expect(problem.errors?.[0]?.pointer).toBe('#/language');
    const mine = await (await call('/api/me/consents', { headers: as(person) })).json<{
      history: { language: string }[];
    }>();
    expect(mine.history.map((h) => h.language)).toEqual(['en', 'hi']);
  });

  it('refuses a grant that cites the superseded v1 notice', async () => {
    const person = await signup('candidate');
    const res = await call(
      '/api/consent',
      jsonInit('POST', { purpose: 'leaderboard', action: 'grant', noticeVersion: 'v1' }, as(person)),
    );
    expect((await expectProblem(res, 422, 'validation-failed')).errors?.[0]?.pointer).toBe('#/noticeVersion');
  });
});
