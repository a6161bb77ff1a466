// The subset of the D1 client API the service uses (prepare/bind/all/raw/run/first, batch as
// one transaction, exec, withSession), over node:sqlite on a local D1 file. Lets the benchmark
// run the service's own code in Node: to measure the DSR export's memory with
// process.memoryUsage(), and to time each statement of a slow operation.
import { DatabaseSync } from 'node:sqlite';

/**
 * @typedef {{ sql: string; ms: number; rows: number; changes: number }} StatementTiming
 */

/** @param {unknown[]} values */
const bindable = (values) =>
  values.map((v) => {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v instanceof ArrayBuffer) return new Uint8Array(v);
    if (v === undefined) return null;
    return v;
  });

/**
 * @param {string} file the SQLite file of a local D1 database
 * @param {{ onStatement?: (t: StatementTiming) => void }} [options]
 */
export function nodeD1(file, options = {}) {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA foreign_keys = ON');
  const onStatement = options.onStatement ?? (() => {});
  /** @type {Map<string, import('node:sqlite').StatementSync>} */
  const cache = new Map();
  const statement = (/** @type {string} */ sql) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };

  /**
   * @param {string} sql
   * @param {unknown[]} params
   * @param {'objects' | 'arrays' | 'run'} mode
   */
  const execute = (sql, params, mode) => {
    const s = statement(sql);
    const started = performance.now();
    const values = /** @type {import('node:sqlite').SQLInputValue[]} */ (bindable(params));
    const returnsRows = s.columns().length > 0;
    if (mode === 'run' || !returnsRows) {
      const r = s.run(...values);
      const ms = performance.now() - started;
      onStatement({ sql, ms, rows: 0, changes: Number(r.changes) });
      return {
        success: true,
        results: [],
        meta: {
          duration: ms,
          changes: Number(r.changes),
          last_row_id: Number(r.lastInsertRowid),
          rows_read: 0,
          rows_written: Number(r.changes),
        },
      };
    }
    s.setReturnArrays(mode === 'arrays');
    const rows = s.all(...values);
    const ms = performance.now() - started;
    onStatement({ sql, ms, rows: rows.length, changes: 0 });
    return {
      success: true,
      results: rows.map((r) => (mode === 'arrays' ? r : { ...r })),
      meta: { duration: ms, changes: 0, last_row_id: 0, rows_read: rows.length, rows_written: 0 },
    };
  };

  class Statement {
    /** @param {string} sql @param {unknown[]} [params] */
    constructor(sql, params = []) {
      this.sql = sql;
      this.params = params;
    }

    /** @param {unknown[]} values */
    bind(...values) {
      return new Statement(this.sql, values);
    }

    async all() {
      return execute(this.sql, this.params, 'objects');
    }

    async run() {
      return execute(this.sql, this.params, 'run');
    }

    /** @param {{ columnNames?: boolean }} [options] */
    async raw(options) {
      const rows = execute(this.sql, this.params, 'arrays').results;
      if (!options?.columnNames) return rows;
      return [
        statement(this.sql)
          .columns()
          .map((c) => c.name),
        ...rows,
      ];
    }

    /** @param {string} [column] */
    async first(column) {
      const row = /** @type {Record<string, unknown> | undefined} */ (
        execute(this.sql, this.params, 'objects').results[0]
      );
      if (!row) return null;
      return column === undefined ? row : row[column];
    }
  }

  const api = {
    /** @param {string} sql */
    prepare: (sql) => new Statement(sql),
    /** @param {Statement[]} statements */
    batch: async (statements) => {
      db.exec('BEGIN');
      try {
        const results = statements.map((s) => execute(s.sql, s.params, 'objects'));
        db.exec('COMMIT');
        return results;
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
    },
    /** @param {string} sql */
    exec: async (sql) => {
      db.exec(sql);
      return { count: 1, duration: 0 };
    },
    withSession: () => api,
    close: () => db.close(),
  };
  return api;
}
