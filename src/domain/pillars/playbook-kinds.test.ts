/**
 * Issue 53: playbooks per deliverable kind, not per field; issue 55: a command-line tool is not
 * planned as a web page. Briefs of their own, none from a held-out set.
 */
import { describe, expect, it } from 'vitest';
import { kindOf } from './knowledge/kinds';
import { sharedTaskShare } from './knowledge/specificity';
import { generatePlaybook } from './playbook';
import type { PlaybookBrief } from './types';

const tasksOf = (brief: PlaybookBrief) => generatePlaybook(brief).milestones.flatMap((m) => m.tasks);

describe('a command-line tool (issue 55)', () => {
  it.each(['Web development', 'JavaScript'])('is planned as a command, not a page (domain %s)', (domain) => {
    const tasks = tasksOf({
      title: 'A command-line tool that renames photos by the date they were taken',
      domain,
      durationDays: 7,
      deliverables: ['A CLI in TypeScript published to npm', 'A README with usage examples'],
      successCriteria: ['Renames 10,000 photos in under 20 seconds', 'Exit code 2 when a folder is missing'],
    }).join('\n');
    expect(tasks).not.toMatch(/browser|page map|markup|Lighthouse|mobile and desktop/i);
    expect(tasks).toMatch(/terminal/);
    expect(tasks).toMatch(/exit code/i);
  });
});

describe('deliverables are planned by what they are', () => {
  it('classifies deliverables by kind', () => {
    expect(kindOf('A cleaned dataset of 3,000 shop receipts')?.key).toBe('dataset');
    expect(kindOf('2,000 bird calls annotated with the species')?.key).toBe('labelled-dataset');
    expect(kindOf('A churn classifier')?.key).toBe('model');
    expect(kindOf('A site plan at 1:500')?.key).toBe('drawing');
    expect(kindOf('An inspection report for the bridge')?.key).toBe('report');
    expect(kindOf('A nightly sync between the shop and the accounts')?.key).toBe('integration');
    expect(kindOf('A prize-giving ceremony for 300 guests')?.key).toBe('event');
    expect(kindOf('A staff rota for December')?.key).toBe('schedule');
    expect(kindOf('A bereavement leave policy')?.key).toBe('document');
    expect(kindOf('Something unnamed')).toBeNull();
  });

  it('gives a dataset the steps of a dataset and a drawing those of a drawing, in an unknown field', () => {
    const tasks = tasksOf({
      title: 'Tree census of a city park',
      domain: 'Urban forestry',
      durationDays: 14,
      deliverables: [
        'A dataset of every tree with species, girth and health',
        'A map of the trees at 1:1000',
      ],
      successCriteria: ['Every tree over 30 cm girth recorded', 'Positions within 2 m'],
    });
    const all = tasks.join('\n');
    expect(all).toMatch(/schema of the dataset/);
    expect(all).toMatch(/Validate the dataset with automated checks/);
    expect(all).toMatch(/Draw a map of the trees at 1:1000 to scale/);
    expect(all).not.toMatch(/train|baseline|seed/i);
    expect(tasks).not.toContain('Produce a dataset of every tree with species, girth and health');
  });

  it('does not borrow another field’s steps over a word that only stems alike', () => {
    const tasks = tasksOf({
      title: 'Panel survey dataset of small farmers',
      domain: 'Data science',
      durationDays: 10,
      deliverables: ['A cleaned dataset of 800 farmer interviews', 'A codebook for every variable'],
      successCriteria: ['No duplicate farmer IDs'],
    }).join('\n');
    expect(tasks).not.toMatch(/chart of accounts|variances/i);
    expect(tasks).toMatch(/the codebook/);
  });

  it('keeps two unrelated briefs of the same shape below 30 % shared skeleton', () => {
    const concert: PlaybookBrief = {
      title: 'A school choir concert',
      domain: 'Music',
      durationDays: 20,
      deliverables: ['A concert of ten songs', 'A rehearsal schedule for six weeks'],
      successCriteria: ['Under 60 minutes', 'Every child sings a solo line'],
    };
    const survey: PlaybookBrief = {
      title: 'Well water survey of a village',
      domain: 'Environmental science',
      durationDays: 20,
      deliverables: ['Water samples from 25 wells', 'A water quality report for the panchayat'],
      successCriteria: ['Nitrate measured in every sample', 'Report under 10 pages'],
    };
    const share = sharedTaskShare(generatePlaybook(concert), concert, generatePlaybook(survey), survey);
    expect(share).toBeLessThanOrEqual(0.3);
  });
});
