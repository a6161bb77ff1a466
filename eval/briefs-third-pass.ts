/**
 * Tuning briefs of issue 37's third pass (2026-11-28), written without reading the held-out set.
 * They pin, on the tuning set, two narrowings of the second pass that were first noticed through
 * a held-out aggregate (docs/ai-quality.md, "What the aggregates leaked"): a language name that is
 * also an ordinary word ("Go" the board game, rust on steel or on wheat) names the backend field
 * only with a backend word beside it, and a laboratory flask is not a Python web framework.
 */
import type { EvalCase } from './briefs';

export const THIRD_PASS_CASES: readonly EvalCase[] = [
  {
    id: 'go-board-game-lessons',
    field: 'unknown',
    playbook: {
      title: 'Beginner lessons in the board game Go for a school club',
      domain: 'Go',
      durationDays: 14,
      deliverables: ['Six lesson plans on capturing, life and death, and ko', 'A set of 40 tsumego problems'],
      successCriteria: ['Every lesson fits 45 minutes', 'Problems graded from 30 kyu to 20 kyu'],
    },
    plan: {
      mustDo: ['lesson plans', 'tsumego problems', '45 minutes'],
      mustAvoid: ['endpoint', 'migration', 'integration test', 'database'],
    },
    rubric: {
      text: `Our school chess club wants to start Go on the 9x9 board.
- Write six lesson plans covering capturing, life and death, and ko.
- Each lesson must fit a 45-minute period and end with a short game.
- Prepare 40 tsumego problems, graded from 30 kyu to 20 kyu, with answers.
- A one-page rules sheet for parents would be welcome.`,
      domain: 'Go',
      asks: ['six lesson plans', '45-minute', 'tsumego', 'rules sheet'],
      themes: [],
      levelsAvoid: ['OWASP', 'unit test', 'repository'],
    },
  },
  {
    id: 'rust-footbridge-repaint',
    field: 'unknown',
    playbook: {
      title: 'Rust removal and repainting of a steel footbridge',
      domain: 'Rust',
      durationDays: 10,
      deliverables: ['A surface preparation method statement and a paint system specification'],
      successCriteria: ['Blast cleaning to Sa 2½', 'Dry film thickness of at least 240 microns'],
    },
    plan: {
      mustDo: ['method statement', 'paint system specification', 'Sa 2½'],
      mustAvoid: ['endpoint', 'handlers', 'OpenAPI', 'database'],
    },
    rubric: {
      text: `The 30 m steel footbridge over the nallah has heavy rust at the bearings and on the lower chord.
1. Survey the corrosion and mark areas of section loss above 10%.
2. Write a method statement for abrasive blast cleaning to Sa 2½.
3. Specify a three-coat paint system with a dry film thickness of at least 240 microns.
4. Plan the work in night closures of 6 hours.
Structural repairs are not part of this scope.`,
      domain: 'Rust',
      asks: ['section loss', 'method statement', 'paint system', 'night closures'],
      themes: [],
      outOfScope: ['Structural repairs'],
      levelsAvoid: ['OWASP', 'unit test', 'code quality'],
    },
  },
  {
    id: 'wheat-rust-surveillance',
    field: 'unknown',
    playbook: {
      title: 'Stripe rust surveillance in wheat fields of Punjab',
      domain: 'Wheat rust surveillance',
      durationDays: 21,
      deliverables: ['Field scouting records and a disease severity map by block'],
      successCriteria: ['At least 60 fields scouted', 'Severity scored on the modified Cobb scale'],
    },
    plan: {
      mustDo: ['scouting records', 'severity map', 'Cobb scale'],
      mustAvoid: ['endpoint', 'deploy', 'integration test', 'cargo'],
    },
    rubric: {
      text: `Stripe rust surveillance, rabi season, three blocks of Ludhiana district. Scout at least 60 wheat fields at tillering and at flag leaf. Score severity on the modified Cobb scale and note the host response. Collect leaf samples from every infected field for race analysis at the regional station. Map severity by block and flag fields above 20% for the extension officer.`,
      domain: 'Wheat rust surveillance',
      asks: ['60 wheat fields', 'modified Cobb scale', 'leaf samples', 'Map severity'],
      themes: [],
      levelsAvoid: ['OWASP', 'code quality', 'unit test'],
    },
  },
  {
    id: 'lab-flask-titration',
    field: 'unknown',
    playbook: {
      title: 'Titration method for free acidity in edible oil',
      domain: 'Food testing laboratory',
      durationDays: 8,
      deliverables: ['A validated titration method and a bench worksheet'],
      successCriteria: ['Repeatability RSD below 2%', 'Results within 5% of the reference material'],
    },
    plan: {
      mustDo: ['titration method', 'bench worksheet', 'RSD'],
      mustAvoid: ['endpoint', 'route', 'request handler', 'pytest'],
    },
    rubric: {
      text: `Free fatty acid test for our refined oils. Weigh the sample into a 250 ml conical flask, dissolve in neutralised ethanol and titrate with 0.1 N KOH to a phenolphthalein end point. Validate the method with six replicates; the RSD must be below 2%. Compare against the certified reference material. Prepare a bench worksheet the technicians can fill by hand.`,
      domain: 'Food testing laboratory',
      asks: ['conical flask', 'six replicates', 'certified reference material', 'bench worksheet'],
      themes: [],
      levelsAvoid: ['OWASP', 'code quality', 'unit test'],
    },
  },
];
