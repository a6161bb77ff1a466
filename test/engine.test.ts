import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../src/app';
import { localEngine } from '../src/services/pillars/local-engine';
import { type AiRunner, workersAiEngine } from '../src/services/pillars/workers-ai-engine';
import {
  ANDROID_BRIEF,
  GENERIC_PLAYBOOK,
  GOOD_PLAYBOOK,
  GOOD_RUBRIC,
  INVENTED_LINK_PLAYBOOK,
  LOPSIDED_RUBRIC,
  MALFORMED_PLAYBOOK,
  OTHER_FIELD_LINK_PLAYBOOK,
  RUBRIC_BRIEF,
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
