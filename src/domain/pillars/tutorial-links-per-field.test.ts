/**
 * Issue 53: a playbook's links are its field's own tools and references. A sales plan linked a
 * privacy regulation's text and a mail administrator's console page; general pages like these
 * belong to no field's catalogue.
 */
import { describe, expect, it } from 'vitest';
import { generatePlaybook } from './playbook';
import { TUTORIAL_ENTRIES } from './tutorial-catalogue';

/** Pages of no field: legislation texts and admin consoles' help. */
const GENERAL_PAGE = /eur-lex\.europa\.eu|legislation\.gov|support\.google\.com\/a\//;

describe('links per field', () => {
  it('lists no legislation text or admin console page in any field', () => {
    for (const e of TUTORIAL_ENTRIES) expect(e.url, e.title).not.toMatch(GENERAL_PAGE);
  });

  it("gives a sales playbook the sales field's own tools: the CRM, prospecting and forecasting", () => {
    const playbook = generatePlaybook({
      title: 'Outbound pipeline for a payroll SaaS',
      domain: 'Sales',
      durationDays: 10,
      deliverables: [
        'An ideal customer profile and 150 target accounts',
        'A three-touch cold email sequence',
        'A pipeline forecast for next quarter',
      ],
      successCriteria: ['Each email under 120 words', 'Forecast built from stage conversion rates'],
    });
    const links = playbook.milestones.flatMap((m) => m.tutorial_links);
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l).not.toMatch(GENERAL_PAGE);
    expect(links.some((l) => l.includes('knowledge.hubspot.com') || l.includes('sales-navigator'))).toBe(
      true,
    );
  });
});
