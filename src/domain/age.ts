/**
 * Age on the service's clock (DPDP Act 2023 §2(f): a child is an individual who has not
 * completed eighteen years). Dates of birth are ISO calendar dates (`YYYY-MM-DD`), compared as
 * dates in UTC: a person born on 2008-11-23 completes eighteen years on 2026-11-23 (00:00 UTC).
 * Someone born on 29 February completes a year on 1 March in a common year.
 */

export const AGE_OF_MAJORITY = 18;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * The latest date of birth of someone who has completed `years` at `now`: `dob <= cutoff` means
 * at least that old. A string comparison of ISO dates is a date comparison, so SQL can use it too.
 */
export function birthCutoff(now: Date, years = AGE_OF_MAJORITY): string {
  const y = now.getUTCFullYear() - years;
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  // 29 February in a year without one: the cutoff is 28 February (born on the 29th: adult on 1 March).
  const candidate = new Date(Date.UTC(y, m, d));
  const day = candidate.getUTCMonth() === m ? candidate : new Date(Date.UTC(y, m + 1, 0));
  return day.toISOString().slice(0, 10);
}

/** A child: a recorded date of birth after the cutoff. Unknown (null) is not a child (see docs/data-rights.md). */
export function isChild(dateOfBirth: string | null | undefined, now: Date): boolean {
  return typeof dateOfBirth === 'string' && dateOfBirth > birthCutoff(now);
}

/** When the person completes eighteen years (00:00 UTC of that day). */
export function majorityAt(dateOfBirth: string): Date {
  const [y, m, d] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y + AGE_OF_MAJORITY, m - 1, d));
  // 29 February: 1 March of a common year.
  return at.getUTCMonth() === m - 1 ? at : new Date(Date.UTC(y + AGE_OF_MAJORITY, m, 1));
}
