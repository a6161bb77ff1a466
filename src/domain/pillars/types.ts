/**
 * Shapes shared by the pillar engines (local and Workers AI). Plain types only, so the
 * route schemas (zod) and the database columns can be checked against them structurally.
 * `RubricCriterion` and `RubricLevel` match `src/db/schema.ts` field for field.
 */

/** The seed's PlaybookBrief: the request body of playbook generation. */
export type PlaybookBrief = {
  title: string;
  deliverables: string[];
  successCriteria: string[];
  durationDays: number;
  domain: string;
};

/** One step of a criterion's scale; `score` is 1..5. */
export type RubricLevel = { score: number; descriptor: string };

export type RubricCriterion = {
  id: string;
  name: string;
  description: string;
  /** Integer share of the overall score; a rubric's weights sum to exactly 100. */
  weight: number;
  /** Five levels, scores 1..5 in ascending order. */
  levels: RubricLevel[];
  /** The brief sentence the criterion came from, quoted verbatim (trimmed). */
  source: string;
};

export type Rubric = {
  criteria: RubricCriterion[];
  /** Minimum weighted mean score, on the 1–5 scale, for a `pass`. */
  passThreshold: number;
  /**
   * What the brief leaves out ("Do NOT include …", "no need for …"), in its own words: scope,
   * never weighted or graded. Absent on rubrics stored before it existed.
   */
  outOfScope?: string[];
};

/** The seed's Milestone plus a stable id (`m1`, `m2`, …). */
export type Milestone = { id: string; day: number; title: string; tasks: string[]; tutorial_links: string[] };

export type RubricPreview = {
  criteria: { id: string; name: string; weight: number }[];
  passThreshold: number;
};

export type Playbook = {
  milestones: Milestone[];
  rubric_preview: RubricPreview;
  /**
   * How well the knowledge base knows the brief's field: `low` means a deliberately general
   * plan without links; `medium` a known field whose deliverables were partly recognised.
   */
  confidence?: 'high' | 'medium' | 'low';
};

export type SubmissionContent = { text?: string; files?: { path: string; content: string }[] };

/** `score` is an integer 1..5. */
export type CriterionScore = { criterionId: string; score: number; explanation: string };

/** `overallScore` is an integer 1..5; `verdict` compares the unrounded weighted mean with the threshold. */
export type SubmissionScore = {
  criterionScores: CriterionScore[];
  overallScore: number;
  verdict: 'pass' | 'fail';
};
