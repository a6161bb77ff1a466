import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { localEngine } from '../src/services/pillars/local-engine';
import { type AiRunner, workersAiEngine } from '../src/services/pillars/workers-ai-engine';
import {
  ANDROID_BRIEF,
  CONTRACT_BRIEF,
  CONTRACT_RUBRIC_OWASP,
  GENERIC_PLAYBOOK,
  GO_BRIEF,
  GO_PLAYBOOK_GO_LINKS,
  GO_PLAYBOOK_NODE_LINKS,
  GOOD_PLAYBOOK,
  GOOD_RUBRIC,
  INVENTED_LINK_PLAYBOOK,
  LETTER_BRIEF,
  LETTER_RUBRIC_BARE_VERB_NAME,
  LETTER_RUBRIC_FORMULA_NAME,
  LETTER_RUBRIC_GOOD,
  LETTER_RUBRIC_GRADES_EXCLUSION,
  LETTER_RUBRIC_SENTENCE_NAME,
  LOPSIDED_RUBRIC,
  MALFORMED_PLAYBOOK,
  OTHER_FIELD_LINK_PLAYBOOK,
  RUBRIC_BRIEF,
  SURVEY_BRIEF,
  SURVEY_PLAYBOOK_WITH_LINKS,
} from './fixtures/workers-ai-recordings';
import { issueKey, loginAdmin } from './harness';
import { jsonInit } from './helpers';

const BRIEF = ANDROID_BRIEF;
const VALID_PLAYBOOK = GOOD_PLAYBOOK.response;

/** A fake `AI` binding answering from a script: a value, a thrower, or a never-settling promise. */
function fakeAi(...answers: (unknown | Error | 'hang')[]): AiRunner & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    calls,
    async run(_model, input) {
      calls.push(input);
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      if (answer === 'hang') return new Promise(() => {});
      return answer;
    },
  };
}

const options = { model: '@cf/test/model', timeoutMs: 200 };

describe('Workers AI engine', () => {
  it('uses valid JSON-mode output, asks with the JSON schema, and names itself', async () => {
    const ai = fakeAi({ response: VALID_PLAYBOOK });
    const out = await workersAiEngine(ai, options).generatePlaybook(BRIEF);
    expect(out.engine).toBe('workers-ai');
    expect(out.fallbackReason).toBeUndefined();
    const format = ai.calls[0]?.response_format as { type: string; json_schema: { type: string } };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.type).toBe('object');
    // Ids are renumbered; the rubric preview and the confidence are the platform's own.
    expect(out.result.milestones.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(out.result.confidence).toBe('high');
    expect(out.result.rubric_preview).toEqual(
      (await localEngine.generatePlaybook(BRIEF)).result.rubric_preview,
    );
    // The prompt carries the field's guidance and its catalogue as the only permitted links.
    const messages = (ai.calls[0]?.messages ?? []) as { content: string }[];
    const system = messages[0]?.content ?? '';
    expect(system).toMatch(/Jetpack Compose/);
    expect(system).toContain('https://developer.android.com/training/testing');
    expect(system).not.toContain('developer.apple.com');
  });

  it('replays recorded failures into a local fallback that says why', async () => {
    const cases: [unknown, RegExp][] = [
      [MALFORMED_PLAYBOOK, /not JSON/],
      [INVENTED_LINK_PLAYBOOK, /a tutorial link is not in the curated catalogue/],
      [OTHER_FIELD_LINK_PLAYBOOK, /developer\.apple\.com.*another field than Android development/],
      [GENERIC_PLAYBOOK, /restate the brief/],
    ];
    for (const [answer, reason] of cases) {
      const ai = fakeAi(answer);
      const out = await workersAiEngine(ai, options).generatePlaybook(BRIEF);
      expect(ai.calls, String(reason)).toHaveLength(2);
      expect(out.engine).toBe('local');
      expect(out.fallbackReason).toMatch(reason);
      // The model's own strings (an invented URL) are never echoed back in a response.
      expect(out.fallbackReason).not.toContain('android-tutorials.example');
      expect(out.result).toEqual((await localEngine.generatePlaybook(BRIEF)).result);
    }
  });

  it('holds Workers AI rubrics to the same rules as local ones', async () => {
    const good = await workersAiEngine(fakeAi(GOOD_RUBRIC), options).extractRubric(RUBRIC_BRIEF, 'marketing');
    expect(good.engine).toBe('workers-ai');
    expect(good.result.criteria.map((c) => c.id)).toEqual(['c1', 'c2', 'c3', 'c4']);
    const lopsided = await workersAiEngine(fakeAi(LOPSIDED_RUBRIC), options).extractRubric(
      RUBRIC_BRIEF,
      'marketing',
    );
    expect(lopsided.engine).toBe('local');
    expect(lopsided.fallbackReason).toMatch(/44 %, above 40 %/);
    expect(lopsided.fallbackReason).toMatch(/Pricing section & Free/);
  });

  it('accepts the answer as a JSON string too', async () => {
    const out = await workersAiEngine(
      fakeAi({ response: JSON.stringify(VALID_PLAYBOOK) }),
      options,
    ).generatePlaybook(BRIEF);
    expect(out.engine).toBe('workers-ai');
  });

  it('retries once on invalid output and uses the second answer when it validates', async () => {
    const ai = fakeAi({ response: { milestones: 'nope' } }, { response: VALID_PLAYBOOK });
    const out = await workersAiEngine(ai, options).generatePlaybook(BRIEF);
    expect(ai.calls).toHaveLength(2);
    expect(out.engine).toBe('workers-ai');
  });

  it('falls back to the local engine after two invalid answers, and says why', async () => {
    const ai = fakeAi({ response: { milestones: [] } });
    const out = await workersAiEngine(ai, options).generatePlaybook(BRIEF);
    expect(ai.calls).toHaveLength(2);
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(/failed validation/);
    expect(out.result).toEqual((await localEngine.generatePlaybook(BRIEF)).result);
  });

  it('treats output that breaks the business rules as invalid (a day beyond the duration)', async () => {
    const late = { ...VALID_PLAYBOOK, milestones: VALID_PLAYBOOK.milestones.map((m) => ({ ...m, day: 30 })) };
    const out = await workersAiEngine(fakeAi({ response: late }), options).generatePlaybook(BRIEF);
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(/1\.\.10/);
  });

  it('falls back when the binding throws or does not answer in time', async () => {
    const failing = await workersAiEngine(
      fakeAi(new Error('Binding AI needs to be run remotely')),
      options,
    ).extractRubric('The API must return JSON. It should be documented. We expect tests.');
    expect(failing).toMatchObject({ engine: 'local', fallbackReason: 'Binding AI needs to be run remotely' });
    const slow = await workersAiEngine(fakeAi('hang'), options).scoreSubmission(
      (await localEngine.extractRubric('The API must return JSON. It should be documented. We expect tests.'))
        .result,
      { text: 'An API returning JSON, documented, with tests.' },
    );
    expect(slow.engine).toBe('local');
    expect(slow.fallbackReason).toMatch(/within 200 ms/);
  });

  it('rejects rubric sources that are not quotes of the brief', async () => {
    const text = 'The service must be fast. It should be tested.';
    const invented = {
      response: {
        criteria: [
          {
            id: 'a',
            name: 'Speed',
            description: 'd',
            weight: 100,
            source: 'Something the brief never said',
            levels: [1, 2, 3, 4, 5].map((score) => ({ score, descriptor: `level ${score}` })),
          },
        ],
        passThreshold: 3,
      },
    };
    const out = await workersAiEngine(fakeAi(invented), options).extractRubric(text);
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(/verbatim/);
  });
});

describe('Workers AI output obeys the rules of issue 37 (recorded answers)', () => {
  it('accepts a rubric that leaves the exclusion out of its criteria', async () => {
    const out = await workersAiEngine(fakeAi(LETTER_RUBRIC_GOOD), options).extractRubric(
      LETTER_BRIEF,
      'Marketing',
    );
    expect(out.engine).toBe('workers-ai');
    expect(out.result.criteria.map((c) => c.name)).toEqual([
      'WhatsApp broadcast messages',
      'Instagram posts',
      'Playful tone',
    ]);
  });

  it('refuses a rubric that grades an exclusion, and answers with the local one, which does not', async () => {
    const ai = fakeAi(LETTER_RUBRIC_GRADES_EXCLUSION);
    const out = await workersAiEngine(ai, options).extractRubric(LETTER_BRIEF, 'Marketing');
    expect(ai.calls).toHaveLength(2);
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(
      /"Avoids paid ads" grades "paid ads", which the brief puts out of scope/,
    );
    expect(out.result.criteria.some((c) => /paid ads/i.test(`${c.name} ${c.source}`))).toBe(false);
    expect(out.result.outOfScope).toContain('paid ads');
  });

  it('refuses a letter formula as a criterion name', async () => {
    const out = await workersAiEngine(fakeAi(LETTER_RUBRIC_FORMULA_NAME), options).extractRubric(
      LETTER_BRIEF,
      'Marketing',
    );
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(
      /"As discussed PFB" is not a criterion name an expert would write \(a letter formula\)/,
    );
    expect(out.result.criteria.some((c) => /As discussed|PFB|Dear|Regards|Kindly/.test(c.name))).toBe(false);
  });

  it('refuses a sentence of the brief, modal and all, as a criterion name', async () => {
    const out = await workersAiEngine(fakeAi(LETTER_RUBRIC_SENTENCE_NAME), options).extractRubric(
      LETTER_BRIEF,
      'Marketing',
    );
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(
      /"Tone must stay playful" is not a criterion name an expert would write \(a sentence, not a noun phrase\)/,
    );
    expect(out.result.criteria.some((c) => /\b(?:must|should)\b/i.test(c.name))).toBe(false);
  });

  it('refuses an instruction as a criterion name, with the validator the local engine uses', async () => {
    const out = await workersAiEngine(fakeAi(LETTER_RUBRIC_BARE_VERB_NAME), options).extractRubric(
      LETTER_BRIEF,
      'Marketing',
    );
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(
      /"Write three WhatsApp messages" is not a criterion name an expert would write \(a bare verb, not a noun phrase\)/,
    );
    expect(out.result.criteria.some((c) => /^Write\b/.test(c.name))).toBe(false);
  });

  it("refuses levels in another field's terms (OWASP in a contract review)", async () => {
    const out = await workersAiEngine(fakeAi(CONTRACT_RUBRIC_OWASP), options).extractRubric(
      CONTRACT_BRIEF,
      'Legal',
    );
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(/graded in software terms \("OWASP"\)/);
    const levels = out.result.criteria.flatMap((c) => c.levels.map((l) => l.descriptor)).join(' ');
    expect(levels).not.toMatch(/OWASP/);
  });

  it('accepts Go material for a Go service and refuses Node.js material', async () => {
    const good = await workersAiEngine(fakeAi(GO_PLAYBOOK_GO_LINKS), options).generatePlaybook(GO_BRIEF);
    expect(good.engine).toBe('workers-ai');
    const node = await workersAiEngine(fakeAi(GO_PLAYBOOK_NODE_LINKS), options).generatePlaybook(GO_BRIEF);
    expect(node.engine).toBe('local');
    expect(node.fallbackReason).toMatch(/nodejs\.org.* another programming language than the brief's/);
    const links = node.result.milestones.flatMap((m) => m.tutorial_links);
    expect(links.some((l) => l.includes('nodejs.org'))).toBe(false);
  });

  it('refuses any link for a field the knowledge base does not know, and says so with low confidence', async () => {
    const out = await workersAiEngine(fakeAi(SURVEY_PLAYBOOK_WITH_LINKS), options).generatePlaybook(
      SURVEY_BRIEF,
    );
    expect(out.engine).toBe('local');
    expect(out.fallbackReason).toMatch(/without curated material: give no tutorial links/);
    expect(out.result.confidence).toBe('low');
    expect(out.result.milestones.flatMap((m) => m.tutorial_links)).toEqual([]);
    // The prompt told the model so in the first place.
    const ai = fakeAi(SURVEY_PLAYBOOK_WITH_LINKS);
    await workersAiEngine(ai, options).generatePlaybook(SURVEY_BRIEF);
    const system = ((ai.calls[0]?.messages ?? []) as { content: string }[])[0]?.content ?? '';
    expect(system).toMatch(/Leave tutorial_links empty/);
  });
});

describe('the engine named in API responses', () => {
  let key: string;
  beforeAll(async () => {
    key = (await issueKey(await loginAdmin(), ['playbooks:generate'])).key;
  });

  const generate = async (ai: AiRunner) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(
        'http://localhost:8787/api/v1/playbooks/generate',
        jsonInit('POST', BRIEF, { 'X-Service-Key': key }),
      ),
      { ...env, AI_ENGINE: 'workers-ai', AI: ai as unknown as Ai },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res.json<{ engine: string; fallbackReason?: string }>();
  };

  it('says workers-ai when Workers AI answered', async () => {
    expect(await generate(fakeAi({ response: VALID_PLAYBOOK }))).toMatchObject({ engine: 'workers-ai' });
  });

  it('says local, with the reason, when invalid Workers AI output fell back', async () => {
    const body = await generate(fakeAi({ response: { nonsense: true } }));
    expect(body.engine).toBe('local');
    expect(body.fallbackReason).toMatch(/failed validation/);
  });
});
