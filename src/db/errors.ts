/**
 * D1 reports constraint violations only as error text (`D1_ERROR: UNIQUE constraint failed:
 * users.email: SQLITE_CONSTRAINT`), so this is the one place that reads it.
 */
export function isUniqueViolation(err: unknown, column?: string): boolean {
  const text = String(err instanceof Error ? `${err.message} ${String(err.cause ?? '')}` : err);
  if (!text.includes('UNIQUE')) return false;
  return column === undefined || text.includes(column);
}
