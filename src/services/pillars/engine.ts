/**
 * One interface for the four AI jobs, with two implementations: Workers AI (remote; JSON
 * mode, validated, retried, timed out) and the deterministic local engine (real algorithms
 * in src/domain). Every result names the engine that produced it, and a fallback says why.
 */

import type { AiContentSignal } from '../../domain/integrity/stylometry';
import type {
  Playbook,
  PlaybookBrief,
  Rubric,
  SubmissionContent,
  SubmissionScore,
} from '../../domain/pillars/types';
import type { EngineName } from './schemas';

export type AiTextEstimate = AiContentSignal;

export type Produced<T> = {
  result: T;
  engine: EngineName;
  /** Present when Workers AI was tried and the local engine answered instead. */
  fallbackReason?: string;
};

export interface PillarEngine {
  generatePlaybook(brief: PlaybookBrief): Promise<Produced<Playbook>>;
  extractRubric(text: string, domain?: string): Promise<Produced<Rubric>>;
  scoreSubmission(rubric: Rubric, submission: SubmissionContent): Promise<Produced<SubmissionScore>>;
  estimateAiText(text: string): Promise<Produced<AiTextEstimate>>;
}
