/** Who else has the data (DPDP §11(1)(b)): processors and parties in the access export. */

import { env } from 'cloudflare:test';
import { BlobReader, configure, TextWriter, ZipReader } from '@zip.js/zip.js';
import { describe, expect, it } from 'vitest';
import { consent, issueKey, loginAdmin, publishedBrief, rate, signup, submitAndWait } from './harness';
import { as, call, jsonInit } from './helpers';

configure({ useWebWorkers: false });

type Recipients = {
  processors: { name: string; role: string; services: string }[];
  sharedWith: { party: string; kind: string; what: string; when: string }[];
};

async function recipientsIn(res: Response): Promise<Recipients> {
  const reader = new ZipReader(new BlobReader(new Blob([await res.arrayBuffer()])));
  const entry = (await reader.getEntries()).find((e) => e.filename === 'recipients.json');
  if (!entry || entry.directory) throw new Error('recipients.json missing');
  return JSON.parse(await entry.getData(new TextWriter())) as Recipients;
}

const ESSAY =
  'Our team traced the weekend ridership drop to the dock rebalancing schedule: trucks moved bikes away from ' +
  'the riverside docks every Friday night, so Saturday riders found empty racks and walked away. Restoring the ' +
  'Friday runs to their old timing brought the weekend numbers back within two weeks of the change.';

describe('GET /api/dsr/access → recipients.json', () => {
  it('lists the processors, the employer who rated the work and the partner whose check matched it, with what and when', async () => {
    const employer = await signup('employer', 'Priya Recruiter', 'Acme Hiring');
    const brief = await publishedBrief(employer);
    const person = await signup('candidate', 'Priya Sharma');
    await consent(person, 'integrity_corpus');
    const work = await submitAndWait(person, brief.playbook.milestones[0]!.id, { text: ESSAY });
    expect((await rate(employer, work.evaluationId, 'fail', 2)).status).toBe(201);

    const admin = await loginAdmin();
    const { key, id: keyId } = await issueKey(admin, ['integrity:check'], 'Partner Uni checks');
    const check = await call(
      '/api/v1/integrity/check',
      jsonInit('POST', { text: `${ESSAY} Thanks for reading.` }, { 'X-Service-Key': key }),
    );
    expect(check.status).toBe(200);
    const recorded = await env.DB.prepare(
      'SELECT api_key_id, partner FROM integrity_disclosures WHERE submission_id = ?',
    )
      .bind(work.id)
      .all<{ api_key_id: string; partner: string }>();
    expect(recorded.results).toEqual([{ api_key_id: keyId, partner: 'Partner Uni checks' }]);

    const res = await call('/api/dsr/access', { headers: as(person) });
    expect(res.status).toBe(200);
    const recipients = await recipientsIn(res);
    expect(recipients.processors.map((p) => p.name)).toEqual([
      'Cloudflare, Inc.',
      'Cloudflare, Inc. (Workers AI)',
    ]);
    expect(recipients.processors.every((p) => p.role === 'Data Processor')).toBe(true);
    const employerEntry = recipients.sharedWith.find((s) => s.kind === 'employer');
    expect(employerEntry).toMatchObject({ party: 'Acme Hiring' });
    expect(employerEntry?.what).toContain(work.id);
    expect(Date.parse(employerEntry!.when)).not.toBeNaN();
    const partnerEntry = recipients.sharedWith.find((s) => s.kind === 'integrity_partner');
    // A key of no organisation: a neutral name, and the key for the DPO to say who the partner is;
    // the key's own name is an administrator's label, not the partner.
    expect(partnerEntry).toMatchObject({ party: 'An integrity-check partner' });
    expect(partnerEntry?.what).toContain(work.id);
    expect(partnerEntry?.what).toContain(keyId);
  });

  it('names organisations, never the person who rated nor a key’s label', async () => {
    const employer = await signup('employer', 'Rohan Recruiter', 'Globex Assessments');
    const brief = await publishedBrief(employer);
    const person = await signup('candidate', 'Meena Pillai');
    await consent(person, 'integrity_corpus');
    const essay = `${ESSAY} Globex edition.`;
    const work = await submitAndWait(person, brief.playbook.milestones[0]!.id, { text: essay });
    expect((await rate(employer, work.evaluationId, 'pass', 4)).status).toBe(201);
    // The organisation renames: the recipient is named as it is now known.
    expect(
      (await call('/api/me/organisation', jsonInit('PATCH', { name: 'Globex Talent' }, as(employer)))).status,
    ).toBe(200);

    const admin = await loginAdmin();
    const [member] = await env.DB.prepare('SELECT organisation_id AS id FROM users WHERE id = ?')
      .bind(employer.id)
      .all<{ id: string }>()
      .then((r) => r.results);
    const issued = await call(
      '/api/admin/api-keys',
      jsonInit(
        'POST',
        { name: 'globex-prod-7', scopes: ['integrity:check'], organisationId: member!.id },
        as(admin),
      ),
    );
    expect(issued.status).toBe(201);
    const { key } = await issued.json<{ key: string }>();
    const check = await call(
      '/api/v1/integrity/check',
      jsonInit('POST', { text: `${essay} Thanks for reading.` }, { 'X-Service-Key': key }),
    );
    expect(check.status).toBe(200);

    const res = await call('/api/dsr/access', { headers: as(person) });
    const text = JSON.stringify(await recipientsIn(res));
    const recipients = JSON.parse(text) as Recipients;
    expect(recipients.sharedWith.find((s) => s.kind === 'employer')).toMatchObject({
      party: 'Globex Talent',
    });
    expect(recipients.sharedWith.find((s) => s.kind === 'integrity_partner')).toMatchObject({
      party: 'Globex Talent',
    });
    expect(text).not.toContain('Rohan Recruiter');
    expect(text).not.toContain('globex-prod-7');
  });

  it('records no disclosure when a check matches nobody, and lists nothing shared for a person whose work nobody saw', async () => {
    const person = await signup('candidate');
    const admin = await loginAdmin();
    const { key } = await issueKey(admin, ['integrity:check'], 'Quiet partner');
    await call(
      '/api/v1/integrity/check',
      jsonInit(
        'POST',
        { text: 'An entirely unrelated paragraph about tide pools and their starfish.' },
        {
          'X-Service-Key': key,
        },
      ),
    );
    const none = await env.DB.prepare(
      "SELECT count(*) AS n FROM integrity_disclosures WHERE partner = 'Quiet partner'",
    ).first<{ n: number }>();
    expect(none?.n).toBe(0);
    const recipients = await recipientsIn(await call('/api/dsr/access', { headers: as(person) }));
    expect(recipients.processors.length).toBe(2);
    expect(recipients.sharedWith).toEqual([]);
  });
});
