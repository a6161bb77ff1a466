/**
 * @param {number[]} values
 * @param {number} p percentile in 0..100
 */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return /** @type {number} */ (sorted[rank]);
}

/** @param {number} ms */
export const fmt = (ms) => `${ms.toFixed(2)} ms`;

/**
 * Prints rows as an aligned text table.
 * @param {string[]} header
 * @param {(string | number)[][]} rows
 */
export function printTable(header, rows) {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  for (const [n, row] of cells.entries()) {
    console.log(row.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  '));
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}
