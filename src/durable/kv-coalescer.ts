import { DurableObject } from 'cloudflare:workers';
import {
  type CoalesceDecision,
  type CoalesceState,
  INITIAL_COALESCE_STATE,
  requestWrite,
  runScheduled,
} from '../domain/coalesce';
import { writePublicView } from '../services/public-views-writer';

const STATE_KEY = 'state';

/**
 * One object per KV key that ratings rewrite (`kv:<key>`): the debounce of `domain/coalesce.ts`.
 * `request` answers whether the caller may write the key now; otherwise the object arms an alarm
 * and writes the key itself once, a second after the previous write, for every change made
 * meanwhile. The state and alarm are stored, so an evicted object still makes its trailing write;
 * the cron (every 15 minutes) rewrites the agreement rate as a backstop.
 */
export class KvCoalescer extends DurableObject<Env> {
  private state: CoalesceState & { key: string | null } = { ...INITIAL_COALESCE_STATE, key: null };

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.state = (await ctx.storage.get<typeof this.state>(STATE_KEY)) ?? this.state;
    });
  }

  /** A change to `key` was committed at `now`. `write`: the caller writes the key now. */
  async request(key: string, now: number = Date.now()): Promise<CoalesceDecision> {
    const [next, decision] = requestWrite(this.state, now);
    if (decision.action === 'joined') return decision;
    this.state = { ...next, key };
    await this.ctx.storage.put(STATE_KEY, this.state);
    if (decision.action === 'schedule') await this.ctx.storage.setAlarm(decision.at);
    return decision;
  }

  /** The trailing write (also callable by tests with a moved clock). */
  async runDue(now: number = Date.now()): Promise<boolean> {
    const key = this.state.key;
    const [next, ran] = runScheduled(this.state, now);
    if (!ran || key === null) return false;
    this.state = { ...next, key };
    await this.ctx.storage.put(STATE_KEY, this.state);
    await writePublicView(this.env, key);
    return true;
  }

  override async alarm(): Promise<void> {
    await this.runDue();
  }
}
