/**
 * Benchmark instrumentation: D1 rows read per request. Bench only: it wraps the service's
 * Worker in bench/worker/index.ts, the entry `npm run bench` builds; production (src/index.ts)
 * never loads it, as it leans on D1 client internals (see `raw()` below).
 *
 * Off unless the `D1_STATS` var is `on`. That var is deliberately absent from wrangler.toml; only
 * `npm run bench` sets it, with `wrangler dev --var D1_STATS:on`. Even with it, only requests
 * that ask (an `X-D1-Stats` request header) are metered, so load tests measure the service
 * without the instrumentation.
 *
 * A metered request gets its own view of the `DB` binding (the Worker is called with an env
 * whose prototype is the real env and whose `DB` is a metering wrapper). Every statement run
 * through it adds D1's own `meta.rows_read` / `meta.rows_written` to the request's totals, and
 * the response carries them:
 *
 *   X-D1-Queries: 3
 *   X-D1-Rows-Read: 14
 *   X-D1-Rows-Written: 0
 *   X-D1-Unmetered: 1        (only when some statement's meta could not be read, see below)
 *
 * Sessions (`withSession`, used for read-replica reads) and batches are metered too. What is not:
 * statements run after the response has left (a streamed body such as the DSR export, or
 * `waitUntil` work), and `raw()` when the runtime's D1 client does not expose the query's meta.
 * `raw()` (Drizzle's path for selects) drops `meta` in the public API, so it is re-implemented
 * here over the D1 client's own `_sendOrThrow`, the call `raw()` makes internally, with the same
 * row conversion; if that internal method is not there, the real `raw()` runs and the query is
 * counted in `X-D1-Unmetered` instead of being silently reported as zero rows.
 */
type Totals = { queries: number; rowsRead: number; rowsWritten: number; unmetered: number };

type Meta = { rows_read?: unknown; rows_written?: unknown };

function count(totals: Totals, meta: Meta | undefined): void {
  totals.queries += 1;
  if (!meta || typeof meta.rows_read !== 'number') {
    totals.unmetered += 1;
    return;
  }
  totals.rowsRead += meta.rows_read;
  if (typeof meta.rows_written === 'number') totals.rowsWritten += meta.rows_written;
}

/** What D1's client answers on `/query` with `ROWS_AND_COLUMNS` (or, from older backends, objects). */
type Upstream = {
  meta?: Meta;
  results?: Record<string, unknown>[] | { columns: string[]; rows: unknown[][] };
};

/** The internal method every D1 statement method calls; present in workerd's D1 client. */
type SendOrThrow = (
  endpoint: string,
  query: string,
  params: unknown[],
  format: string,
  span: { setAttribute: () => void },
) => Promise<Upstream | Upstream[]>;

const NO_SPAN = { setAttribute: () => {} };

function internalSend(statement: D1PreparedStatement): SendOrThrow | null {
  const s = statement as unknown as {
    dbSession?: { _sendOrThrow?: unknown };
    database?: { _sendOrThrow?: unknown };
    statement?: unknown;
    params?: unknown;
  };
  const owner = s.dbSession ?? s.database;
  if (!owner || typeof owner._sendOrThrow !== 'function') return null;
  if (typeof s.statement !== 'string' || !Array.isArray(s.params)) return null;
  return (owner._sendOrThrow as SendOrThrow).bind(owner);
}

class MeteredStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly totals: Totals,
  ) {}

  bind(...values: unknown[]): MeteredStatement {
    return new MeteredStatement(this.inner.bind(...values), this.totals);
  }

  async all(): Promise<D1Result> {
    const result = await this.inner.all();
    count(this.totals, result.meta);
    return result;
  }

  async run(): Promise<D1Result> {
    const result = await this.inner.run();
    count(this.totals, result.meta);
    return result;
  }

  /** As D1's `first`, which reads the same rows as `all` and keeps the first. */
  async first(column?: string): Promise<unknown> {
    const { results } = await this.all();
    const row = results[0] as Record<string, unknown> | undefined;
    if (!row) return null;
    if (column === undefined) return row;
    if (row[column] === undefined) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`);
    return row[column];
  }

  async raw(options?: { columnNames?: boolean }): Promise<unknown[]> {
    const send = internalSend(this.inner);
    if (!send) {
      const rows = await (this.inner.raw as (o?: { columnNames?: boolean }) => Promise<unknown[]>)(options);
      this.totals.queries += 1;
      this.totals.unmetered += 1;
      return rows;
    }
    const { statement, params } = this.inner as unknown as { statement: string; params: unknown[] };
    const answer = await send('/query', statement, params, 'ROWS_AND_COLUMNS', NO_SPAN);
    const s = Array.isArray(answer) ? answer[0] : answer;
    count(this.totals, s?.meta);
    if (!s?.results) return [];
    if (Array.isArray(s.results)) {
      const rows: unknown[] = [];
      for (const row of s.results) {
        if (options?.columnNames && rows.length === 0) rows.push(Object.keys(row));
        rows.push(Object.values(row));
      }
      return rows;
    }
    return [...(options?.columnNames ? [s.results.columns] : []), ...s.results.rows];
  }
}

const unwrap = (statements: unknown[]) =>
  statements.map((s) => (s instanceof MeteredStatement ? s.inner : (s as D1PreparedStatement)));

async function meteredBatch(
  target: { batch: (s: D1PreparedStatement[]) => Promise<D1Result[]> },
  statements: unknown[],
  totals: Totals,
): Promise<D1Result[]> {
  const results = await target.batch(unwrap(statements));
  for (const r of results) count(totals, r.meta);
  return results;
}

class MeteredSession {
  constructor(
    private readonly inner: D1DatabaseSession,
    private readonly totals: Totals,
  ) {}

  prepare(query: string): MeteredStatement {
    return new MeteredStatement(this.inner.prepare(query), this.totals);
  }

  batch(statements: unknown[]): Promise<D1Result[]> {
    return meteredBatch(this.inner, statements, this.totals);
  }

  getBookmark(): string | null {
    return this.inner.getBookmark();
  }
}

class MeteredDatabase {
  constructor(
    private readonly inner: D1Database,
    private readonly totals: Totals,
  ) {}

  prepare(query: string): MeteredStatement {
    return new MeteredStatement(this.inner.prepare(query), this.totals);
  }

  batch(statements: unknown[]): Promise<D1Result[]> {
    return meteredBatch(this.inner, statements, this.totals);
  }

  async exec(query: string): Promise<D1ExecResult> {
    const result = await this.inner.exec(query);
    this.totals.queries += result.count;
    this.totals.unmetered += result.count;
    return result;
  }

  withSession(constraintOrBookmark?: string): MeteredSession {
    return new MeteredSession(
      this.inner.withSession(constraintOrBookmark as D1SessionConstraint | undefined),
      this.totals,
    );
  }

  dump(): Promise<ArrayBuffer> {
    return this.inner.dump();
  }
}

type FetchingWorker = {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => Response | Promise<Response>;
};

/** The Worker, its fetch handler metered; inert unless `D1_STATS` is `on` and the request sends `X-D1-Stats`. */
export function withD1Stats<W extends FetchingWorker>(worker: W): W {
  return {
    ...worker,
    // Not async: an unmetered request (every request under load) goes straight through, with
    // no promise of this wrapper's own around the Worker's.
    fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
      if ((env as { D1_STATS?: unknown }).D1_STATS !== 'on' || !request.headers.get('X-D1-Stats'))
        return worker.fetch(request, env, ctx);
      return metered(request, env, ctx);
    },
  };

  async function metered(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const totals: Totals = { queries: 0, rowsRead: 0, rowsWritten: 0, unmetered: 0 };
    // The corpus shards (FINGERPRINTS_<n>) are metered apart: X-D1-Shard-* (bench:corpus).
    const shardTotals: Totals = { queries: 0, rowsRead: 0, rowsWritten: 0, unmetered: 0 };
    const database = new MeteredDatabase(env.DB, totals) as unknown as D1Database;
    const overrides: PropertyDescriptorMap = { DB: { value: database, enumerable: true } };
    for (const name of Object.keys(env)) {
      if (/^FINGERPRINTS_\d+$/.test(name))
        overrides[name] = {
          value: new MeteredDatabase(
            (env as unknown as Record<string, D1Database>)[name] as D1Database,
            shardTotals,
          ),
          enumerable: true,
        };
    }
    const res = await worker.fetch(request, Object.create(env, overrides) as Env, ctx);
    // A copy, as a response's headers may be immutable (one read from a cache, say).
    const out = new Response(res.body, res);
    out.headers.set('X-D1-Queries', String(totals.queries));
    out.headers.set('X-D1-Rows-Read', String(totals.rowsRead));
    out.headers.set('X-D1-Rows-Written', String(totals.rowsWritten));
    if (totals.unmetered > 0) out.headers.set('X-D1-Unmetered', String(totals.unmetered));
    if (shardTotals.queries > 0) {
      out.headers.set('X-D1-Shard-Queries', String(shardTotals.queries));
      out.headers.set('X-D1-Shard-Rows-Read', String(shardTotals.rowsRead));
      if (shardTotals.unmetered > 0) out.headers.set('X-D1-Shard-Unmetered', String(shardTotals.unmetered));
    }
    return out;
  }
}
