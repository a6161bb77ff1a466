import type { PillarEngine } from './engine';
import { localEngine } from './local-engine';
import { workersAiEngine } from './workers-ai-engine';

export type { PillarEngine, Produced } from './engine';

/**
 * The engine for this environment. `AI_ENGINE=local` (local dev and tests, where the AI
 * binding exists but cannot run) uses the local engine only; otherwise Workers AI is tried
 * first with the local engine as its fallback. Without an AI binding, local.
 */
export function pillarEngine(env: Pick<Env, 'AI' | 'AI_TEXT_MODEL' | 'AI_ENGINE'>): PillarEngine {
  if (env.AI_ENGINE === 'local' || !env.AI) return localEngine;
  return workersAiEngine(
    env.AI as unknown as { run(model: string, input: Record<string, unknown>): Promise<unknown> },
    {
      model: env.AI_TEXT_MODEL,
    },
  );
}
