import { z } from '@hono/zod-openapi';
import { and, eq, lt, or, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { ProblemError } from './problem';

/**
 * A whole-number query parameter in `min`–`max`, written in decimal digits: `0x10`, `1e1`, `+5`,
 * ` 10` and `10.0` are 400s, which `z.coerce.number()` would have read as numbers. Documented as
 * the integer it is.
 */
export const integerQueryParam = (
  name: string,
  o: { min: number; max: number; default: number; description: string; example?: number },
) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'Expected a whole number in decimal digits')
    .transform(Number)
    .pipe(z.number().int().min(o.min).max(o.max))
    .default(o.default)
    .openapi({
      param: { name, in: 'query' },
      type: 'integer',
      minimum: o.min,
      maximum: o.max,
      default: o.default,
      description: o.description,
      ...(o.example === undefined ? {} : { example: o.example }),
      format: 'int32',
    });

/** `limit` for every list: bounded, with a default. */
export const limitParam = (defaultLimit: number, max = 100) =>
  integerQueryParam('limit', {
    min: 1,
    max,
    default: defaultLimit,
    description: `Page size, 1–${max} (default ${defaultLimit}).`,
    example: defaultLimit,
  });

export const cursorParam = () =>
  z
    .string()
    .max(200)
    .optional()
    .openapi({
      param: { name: 'cursor', in: 'query' },
      description: 'Opaque cursor from the previous page’s `nextCursor`.',
    });

export type Position = { createdAt: Date; id: string };

/** Cursors are opaque to clients: base64url of `<ms>.<id>`. */
export function encodeCursor(p: Position): string {
  return btoa(`${p.createdAt.getTime()}.${p.id}`)
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

export function decodeCursor(cursor: string | undefined): Position | undefined {
  if (!cursor) return undefined;
  try {
    const text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
    const dot = text.indexOf('.');
    const ms = Number(text.slice(0, dot));
    const id = text.slice(dot + 1);
    // A time a Date can hold (±8.64e15 ms) and not before the epoch: what `toPage` writes.
    if (dot > 0 && Number.isSafeInteger(ms) && ms >= 0 && ms <= 8.64e15 && id)
      return { createdAt: new Date(ms), id };
  } catch {
    // fall through
  }
  throw invalidCursor();
}

/** The problem for a `cursor` this API did not issue. */
export const invalidCursor = () =>
  new ProblemError('invalid-parameters', 'The cursor is not one this API issued.', {
    errors: [{ pointer: '#/query/cursor', detail: 'Invalid cursor' }],
  });

/** Splits a `limit + 1` fetch into the page and the cursor of the next one. */
export function toPage<T>(
  rows: T[],
  limit: number,
  position: (row: T) => Position = (row) => row as Position,
) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(position(last)) : null,
  };
}

export const pageSchema = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      items: z.array(item),
      nextCursor: z.string().nullable().openapi({ description: 'Null on the last page.' }),
    })
    .openapi(name);

/** Rows after `after` in newest-first (createdAt, id) order: the keyset condition of every cursor. */
export function olderThan(columns: { createdAt: SQLiteColumn; id: SQLiteColumn }, after: Position): SQL {
  return or(
    lt(columns.createdAt, after.createdAt),
    and(eq(columns.createdAt, after.createdAt), lt(columns.id, after.id)),
  ) as SQL;
}
