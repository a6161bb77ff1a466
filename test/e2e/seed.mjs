// Seeds the end-to-end Worker through its public API only, as real users would: an employer
// publishes briefs, candidates consent, submit, get evaluated and rated, and certificates are
// issued (and one revoked) by the workflow itself.

// The API tests' demo brief and work (test/harness.ts): a brief the pillars build a rubric
// for, and work the local engine passes. One milestone, so each certificate takes one rating.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDevVars } from '../../scripts/lib/dev-vars.mjs';
import demo from '../demo-brief.json' with { type: 'json' };

const BRIEF = { ...demo.brief, durationDays: 1 };
const WORK = demo.work;

export const DOMAIN = 'web-development';
export const XSS_DOMAIN = 'markup-check';
export const XSS_ALIAS = '<img src=x onerror=alert(1)>';
export const INDIC_HOLDER = 'अनन्या क्षत्रिय';

/**
 * @typedef {{
 *   domain: string;
 *   xssDomain: string;
 *   xssAlias: string;
 *   employerName: string;
 *   valid: { certificateNo: string; holder: string; title: string };
 *   second: { certificateNo: string };
 *   revoked: { certificateNo: string; holder: string; badgePng: string };
 *   indic: { certificateNo: string; holder: string; cookie: string };
 *   anonymous: { certificateNo: string; holder: string; cookie: string };
 *   long: { certificateNo: string };
 *   linked: { alias: string; certificateNo: string };
 *   suspended: { certificateNo: string };
 *   listed: string[];
 *   unlisted: string[];
 *   peopleChanged: { certificateNo: string; organisation: string; names: string[]; what: string }[];
 * }} Fixtures
 */

/**
 * @param {string} base the Worker's URL (also its PUBLIC_BASE_URL, so it is the allowed Origin)
 * @returns {Promise<Fixtures>}
 */
export async function seed(base) {
  /**
   * @param {string} path
   * @param {{ method?: string; body?: unknown; cookie?: string; expect?: number; ip?: string }} [o]
   */
  async function api(path, { method = 'GET', body, cookie, expect = 200, ip } = {}) {
    /** @type {Record<string, string>} */
    const headers = { accept: 'application/json' };
    if (ip) headers['cf-connecting-ip'] = ip;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (cookie) Object.assign(headers, { cookie, origin: base });
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return { json: text ? JSON.parse(text) : null, res };
  }

  let n = 0;
  /**
   * @param {'candidate' | 'employer'} role
   * @param {string} name the person's, or for an employer the organisation's
   * @param {string} [personName] an employer's own name
   */
  async function signup(role, name, personName = 'E2E Recruiter') {
    n += 1;
    const email = `e2e-${n}-${Date.now().toString(36)}@example.test`;
    // An employer signs up into an organisation of that name (a person's name is never used for it).
    const organisation = role === 'employer' ? { organisation: { name } } : {};
    const { res } = await api('/api/auth/signup', {
      method: 'POST',
      body: {
        email,
        password: 'an-e2e-password-123',
        name: role === 'employer' ? personName : name,
        role,
        dateOfBirth: '1990-01-01',
        ...organisation,
      },
      expect: 201,
      // Signups are limited per network (10 an hour): the fixture's people come from several.
      ip: `198.51.100.${n}`,
    });
    const session = res.headers.getSetCookie().find((c) => c.startsWith('session='));
    if (!session) throw new Error('signup set no session cookie');
    return session.split(';')[0] ?? '';
  }

  /** @param {string} cookie @param {string[]} purposes */
  async function consent(cookie, purposes) {
    for (const purpose of purposes) {
      await api('/api/consent', {
        method: 'POST',
        cookie,
        body: { purpose, action: 'grant', noticeVersion: 'v2' },
        expect: 201,
      });
    }
  }

  /** @param {string} employer @param {Record<string, unknown>} fields @returns {Promise<string[]>} every milestone id, in order */
  async function brief(employer, fields) {
    const { json } = await api('/api/briefs', {
      method: 'POST',
      cookie: employer,
      body: { ...BRIEF, ...fields },
      expect: 201,
    });
    return json.playbook.milestones.map((/** @type {{ id: string }} */ m) => m.id);
  }

  /** An admin verifies the employer's organisation, so its passing ratings issue valid certificates. */
  async function verifyOrganisation(/** @type {string} */ employer, verification = 'verified') {
    const vars = readDevVars();
    const { res } = await api('/api/auth/login', {
      method: 'POST',
      body: { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD },
    });
    const admin =
      (res.headers.getSetCookie().find((c) => c.startsWith('session=')) ?? '').split(';')[0] ?? '';
    const { json: me } = await api('/api/me', { cookie: employer });
    await api(`/api/admin/organisations/${me.organisation.id}`, {
      method: 'PATCH',
      cookie: admin,
      body: { verification, reason: 'End-to-end fixture' },
    });
  }

  /**
   * Submits every milestone in order, waits for each evaluation and rates it a pass; the last
   * pass completes the brief and issues the certificate.
   * @param {string} candidate @param {string} employer @param {string[]} milestoneIds @param {number} score
   * @returns {Promise<string>} the certificate number
   */
  async function certify(candidate, employer, milestoneIds, score) {
    /** @type {{ certificate: { certificateNo: string } | null }} */
    let rated = { certificate: null };
    for (const milestoneId of milestoneIds)
      rated = await passMilestone(candidate, employer, milestoneId, score);
    if (!rated.certificate) throw new Error('passing every milestone issued no certificate');
    return rated.certificate.certificateNo;
  }

  /** @param {string} candidate @param {string} employer @param {string} milestoneId @param {number} score */
  async function passMilestone(candidate, employer, milestoneId, score) {
    const { json: created } = await api('/api/submissions', {
      method: 'POST',
      cookie: candidate,
      body: { milestoneId, text: WORK },
      expect: 201,
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { json } = await api(`/api/submissions/${created.id}`, { cookie: candidate });
      if (json.state === 'evaluated') break;
      if (Date.now() > deadline) throw new Error(`submission ${created.id} stuck in ${json.state}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    const { json: rated } = await api(`/api/evaluations/${created.evaluationId}/employer-rating`, {
      method: 'POST',
      cookie: employer,
      body: { score, verdict: 'pass' },
      expect: 201,
    });
    return rated;
  }

  const employerName = 'Acme Tools Pvt Ltd';
  const employer = await signup('employer', employerName);
  await verifyOrganisation(employer);
  const todo = await brief(employer, { title: 'Build a REST API for a todo app' });
  const catalogue = await brief(employer, { title: 'Document and test a product catalogue API' });
  const markup = await brief(employer, { title: 'Markup check', domain: XSS_DOMAIN });

  const all = ['ai_evaluation', 'leaderboard', 'public_verification'];
  const asha = await signup('candidate', 'Asha Rao');
  await consent(asha, all);
  await api('/api/me', { method: 'PATCH', cookie: asha, body: { publicAlias: 'asha.codes' } });
  const bilal = await signup('candidate', 'Bilal Khan');
  await consent(bilal, all);
  const chen = await signup('candidate', 'Chen Wei');
  await consent(chen, ['ai_evaluation', 'leaderboard']); // listed, but no name on verification
  const dana = await signup('candidate', 'Dana Unlisted');
  await consent(dana, ['ai_evaluation', 'public_verification']); // never on the leaderboard
  // A name in Devanagari, for the holder's PDF (not on the leaderboard, so the board stays as it is).
  const ananya = await signup('candidate', INDIC_HOLDER);
  await consent(ananya, ['ai_evaluation', 'public_verification']);
  const eve = await signup('candidate', 'Eve Markup');
  await consent(eve, ['leaderboard']);
  await api('/api/me', { method: 'PATCH', cookie: eve, body: { publicAlias: XSS_ALIAS } });

  const valid = await certify(asha, employer, todo, 5);
  const second = await certify(asha, employer, catalogue, 4);
  const bilalTodo = await certify(bilal, employer, todo, 4);
  const revoked = await certify(bilal, employer, catalogue, 3);
  const anonymous = await certify(chen, employer, todo, 3);
  await certify(dana, employer, todo, 5);
  await certify(eve, employer, markup, 4);
  const indic = await certify(ananya, employer, catalogue, 4);
  // The badge of the certificate about to be revoked, downloaded while it was still valid (the
  // route answers 410 afterwards): a copy in circulation, for the verifier's revoked case.
  const badge = await fetch(`${base}/api/certificates/${revoked}/badge.png`);
  if (badge.status !== 200) throw new Error(`badge.png: ${badge.status}`);
  const revokedBadgePng = join(mkdtempSync(join(tmpdir(), 'vp-e2e-')), `${revoked}.png`);
  writeFileSync(revokedBadgePng, new Uint8Array(await badge.arrayBuffer()));
  await api(`/api/certificates/${revoked}/revoke`, {
    method: 'POST',
    cookie: employer,
    body: { reason: 'Submitted work was not the candidate’s own' },
  });

  // The people behind two organisations change: one rating person corrects her name, the other
  // employer is erased. Their certificates must keep verifying with no personal name in them.
  // Another domain, so the leaderboards above stay as they are.
  const farah = await signup('candidate', 'Farah Ali');
  await consent(farah, ['ai_evaluation', 'public_verification']);
  /** @type {Fixtures['peopleChanged']} */
  const peopleChanged = [];
  for (const [organisation, person, what] of [
    ['Kaveri Analytics', 'Lakshmi Narayanan', 'name corrected'],
    ['Godavari Works', 'Suresh Pillai', 'employer erased'],
  ]) {
    const employerOf = await signup('employer', organisation, person);
    await verifyOrganisation(employerOf);
    const work = await brief(employerOf, {
      title: `Analyse a dataset for ${organisation}`,
      domain: 'data-work',
    });
    const certificateNo = await certify(farah, employerOf, work, 4);
    const names = [person];
    if (what === 'name corrected') {
      await api('/api/dsr/correction', {
        method: 'PATCH',
        cookie: employerOf,
        body: { name: 'Lakshmi N. Rao' },
      });
      names.push('Lakshmi N. Rao');
    } else {
      const { json } = await api('/api/dsr/erasure', { method: 'DELETE', cookie: employerOf, expect: 202 });
      await erasureCompleted(json.requestId);
    }
    peopleChanged.push({ certificateNo, organisation, names, what });
  }

  // An organisation suspended after issuing: its credential's status bit stays 0 (not revoked),
  // but the platform no longer recognises the issuer. Another domain, so the boards stay as they are.
  const suspendedEmployer = await signup('employer', 'Tapi Traders', 'Ravi Shah');
  await verifyOrganisation(suspendedEmployer);
  // Its title names another, valid certificate's page: the verifier must take the number from a
  // fixed claim (the evidence), never from text like this.
  const suspendedWork = await brief(suspendedEmployer, {
    title: `Audit a sales ledger (see /verify/${valid})`,
    domain: 'data-work',
  });
  const suspended = await certify(farah, suspendedEmployer, suspendedWork, 4);
  await verifyOrganisation(suspendedEmployer, 'suspended');

  // Long names everywhere a page shows one (issue 52: nothing clipped or scrolling sideways at 320 px).
  // Its own domain, so the boards above stay as they are.
  const longEmployer = await signup(
    'employer',
    'Sahyadri Institute of Applied Computing and Software Engineering',
  );
  await verifyOrganisation(longEmployer);
  const longWork = await brief(longEmployer, {
    title:
      'Design, build, test and document a multi-tenant internationalised REST API with OAuth authorisation',
    domain: 'long-names',
  });
  const longHolder = await signup(
    'candidate',
    'Aaradhya Venkatasubramanian Raghunathan-Krishnamurthy Chidambaram',
  );
  await consent(longHolder, ['ai_evaluation', 'public_verification']);
  const long = await certify(longHolder, longEmployer, longWork, 5);

  /** Waits for the erasure job (run by the local queue consumer) to finish. @param {string} requestId */
  async function erasureCompleted(requestId) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { json } = await api(`/api/dsr/erasure/${requestId}`);
      if (json.state === 'completed') return;
      if (Date.now() > deadline) throw new Error(`erasure ${requestId} stuck in ${json.state}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  return {
    peopleChanged,
    domain: DOMAIN,
    xssDomain: XSS_DOMAIN,
    xssAlias: XSS_ALIAS,
    employerName,
    valid: { certificateNo: valid, holder: 'Asha Rao', title: 'Build a REST API for a todo app' },
    second: { certificateNo: second },
    revoked: { certificateNo: revoked, holder: 'Bilal Khan', badgePng: revokedBadgePng },
    indic: { certificateNo: indic, holder: INDIC_HOLDER, cookie: ananya },
    anonymous: { certificateNo: anonymous, holder: 'Chen Wei', cookie: chen },
    // The one listed name that links to a certificate: Bilal shows his name (no alias, public_verification).
    linked: { alias: 'Bilal Khan', certificateNo: bilalTodo },
    suspended: { certificateNo: suspended },
    long: { certificateNo: long },
    // Ranked: two certificates; then one each, by average employer score (3.5, then 3).
    listed: ['asha.codes', 'Bilal Khan', 'Chen Wei'],
    unlisted: ['Dana Unlisted', 'Asha Rao'],
  };
}
