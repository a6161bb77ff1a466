/**
 * The service's structured logs: one JSON line per event, at a level. `LOG_LEVEL` (a var: `debug`,
 * `info`, `warn`, `error` or `silent`; unset or unknown: `info`) sets the lowest level written, so
 * a test run, whose failures are injected on purpose, can keep them out of its output (vitest.config.ts
 * sets `silent` unless `LOG_LEVEL` is given) while a deployment logs everything from `info` up.
 * The level is read from the Worker's env where a request, batch or alarm starts (`useLogLevel`):
 * modules here have no env of their own.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const RANK: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

let threshold = RANK.info;
let seen: string | undefined;

/** Sets the lowest level written from a `LOG_LEVEL` value (cheap when it has not changed). */
export function useLogLevel(value: string | undefined): void {
  if (value === seen) return;
  seen = value;
  threshold = RANK[(value ?? '').trim().toLowerCase() as LogLevel] ?? RANK.info;
}

/** Writes `{level, msg, ...fields}` as one JSON line, when `level` is at or above the threshold. */
export function log(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
  if (RANK[level] < threshold) return;
  const line = JSON.stringify({ level, msg, ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}
