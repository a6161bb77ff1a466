import { aiContentSignal } from '../../domain/integrity/stylometry';
import { scoreSubmission } from '../../domain/pillars/evaluation';
import { generatePlaybook } from '../../domain/pillars/playbook';
import { extractRubric } from '../../domain/pillars/rubric-extraction';
import type { PillarEngine } from './engine';

/** The deterministic engine: no network, same input → same output. */
export const localEngine: PillarEngine = {
  async generatePlaybook(brief) {
    return { result: generatePlaybook(brief), engine: 'local' };
  },
  async extractRubric(text, domain) {
    return { result: extractRubric(text, domain ? { domain } : {}), engine: 'local' };
  },
  async scoreSubmission(rubric, submission) {
    return { result: scoreSubmission(rubric, submission), engine: 'local' };
  },
  async estimateAiText(text) {
    return { result: aiContentSignal(text), engine: 'local' };
  },
};
