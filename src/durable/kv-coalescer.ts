import { DurableObject } from 'cloudflare:workers';
import {
  type CoalesceDecision,
  type CoalesceState,
  INITIAL_COALESCE_STATE,
  requestWrite,
  runScheduled,
} from '../domain/coalesce';
import {
  addChanges,
  type ChangeLog,
  emptyChangeLog,
  type PublishedChanges,
  pruneChanges,
} from '../domain/verification-changes';
import { isolateEpoch } from '../lib/isolate-state';
import { log } from '../lib/log';
import { VERIFY_CHANGES_KEY } from '../services/cache-keys';
import { loadD1Writes } from './d1-writes.load';

const STATE_KEY = 'state';
const CHANGES_KEY = 'changes';

/**
 * One object per KV key that ratings rewrite (`kv:<key>`): the debounce of `domain/coalesce.ts`.
 * `request` answers whether the caller may write the key now; otherwise the object arms an alarm
 * and writes the key itself once, a second after the previous write, for every change made
 * meanwhile. The state and alarm are stored, so an evicted object still makes its trailing write;
 * the cron (every 15 minutes) rewrites the agreement rate as a backstop.
 *
 * The object of `VERIFY_CHANGES_KEY` also keeps the log of recently changed verifications
 * (`verificationsChanged`), and its writes publish that log (`src/services/verification-memory.ts`).
 */
export class KvCoalescer extends DurableObject<Env> {
  private state: CoalesceState & { key: string | null } = { ...INITIAL_COALESCE_STATE, key: null };
  /** The change log (`VERIFY_CHANGES_KEY`'s object only). */
  private changes: ChangeLog | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.state = (await ctx.storage.get<typeof this.state>(STATE_KEY)) ?? this.state;
      this.changes = (await ctx.storage.get<ChangeLog>(CHANGES_KEY)) ?? null;
    });
  }

  /** The isolate epoch this object was last used in (src/lib/isolate-state.ts; moves only in tests). */
  private epoch = isolateEpoch();

  /** Starts over empty, as a new object would (the test suite moved the isolate's epoch). */
  private async forget(): Promise<void> {
    this.epoch = isolateEpoch();
    this.state = { ...INITIAL_COALESCE_STATE, key: null };
    this.changes = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** A change to `key` was committed at `now`. `write`: the caller writes the key now. */
  async request(key: string, now: number = Date.now()): Promise<CoalesceDecision> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    const [next, decision] = requestWrite(this.state, now);
    if (decision.action === 'joined') return decision;
    this.state = { ...next, key };
    await this.ctx.storage.put(STATE_KEY, this.state);
    if (decision.action === 'schedule') await this.ctx.storage.setAlarm(decision.at);
    return decision;
  }

  /**
   * These certificates' verifications changed at `now` (committed): logged, and the log published
   * now when the last write is a second old, else by the trailing write.
   */
  async verificationsChanged(numbers: string[], now: number = Date.now()): Promise<void> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    this.changes = addChanges(this.changes ?? emptyChangeLog(now), numbers, now);
    const [next, decision] = requestWrite(this.state, now);
    if (decision.action !== 'joined') this.state = { ...next, key: VERIFY_CHANGES_KEY };
    await this.ctx.storage.put({ [STATE_KEY]: this.state, [CHANGES_KEY]: this.changes });
    if (decision.action === 'schedule') await this.ctx.storage.setAlarm(decision.at);
    if (decision.action === 'write') await this.publishChanges(now);
  }

  /** The log as published (test seam and the write itself). */
  async publishChanges(now: number = Date.now()): Promise<PublishedChanges> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    this.changes = pruneChanges(this.changes ?? emptyChangeLog(now), now);
    const value: PublishedChanges = { ...this.changes, writtenAt: now };
    await this.env.CACHE.put(VERIFY_CHANGES_KEY, JSON.stringify(value));
    return value;
  }

  /** The trailing write (also callable by tests with a moved clock). */
  async runDue(now: number = Date.now()): Promise<boolean> {
    if (this.epoch !== isolateEpoch()) await this.forget();
    const key = this.state.key;
    const [next, ran] = runScheduled(this.state, now);
    if (!ran || key === null) return false;
    this.state = { ...next, key };
    await this.ctx.storage.put(STATE_KEY, this.state);
    if (key === VERIFY_CHANGES_KEY) await this.publishChanges(now);
    else {
      // Loaded here, not imported at the top: see ./d1-writes.ts.
      const { writePublicViewKey } = await loadD1Writes();
      await writePublicViewKey(this.env.DB, this.env, key);
    }
    return true;
  }

  /**
   * A failed trailing write is logged, not thrown: the state already records it as made, so a
   * retried alarm would find nothing due, and the cron rewrites every public key as a backstop.
   * An alarm that rejects would only add an unhandled error to the log (and, under the test pool,
   * a report sent from outside the test's I/O context).
   */
  override async alarm(): Promise<void> {
    try {
      if (this.epoch !== isolateEpoch()) await this.forget();
      await this.runDue();
    } catch (err) {
      log('error', 'kv coalescer: trailing write failed', { key: this.state.key, error: String(err) });
    }
  }
}
