import { describe, expect, it } from 'vitest';
import { birthCutoff, isChild, isIsoDate, majorityAt } from './age';

describe('age', () => {
  it('accepts only real ISO calendar dates', () => {
    expect(isIsoDate('2008-11-23')).toBe(true);
    expect(isIsoDate('2008-02-29')).toBe(true);
    expect(isIsoDate('2007-02-29')).toBe(false);
    expect(isIsoDate('2008-13-01')).toBe(false);
    expect(isIsoDate('23-11-2008')).toBe(false);
    expect(isIsoDate('2008-11-23T00:00:00Z')).toBe(false);
  });

  it('is a child until the eighteenth birthday, an adult from that day', () => {
    expect(isChild('2008-11-23', new Date('2026-11-22T23:59:59Z'))).toBe(true);
    expect(isChild('2008-11-23', new Date('2026-11-23T00:00:00Z'))).toBe(false);
    expect(isChild(null, new Date())).toBe(false);
    expect(majorityAt('2008-11-23').toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('treats 29 February birthdays as completing a year on 1 March of a common year', () => {
    expect(birthCutoff(new Date('2026-02-28T12:00:00Z'))).toBe('2008-02-28');
    expect(isChild('2008-02-29', new Date('2026-02-28T12:00:00Z'))).toBe(true);
    expect(isChild('2008-02-29', new Date('2026-03-01T00:00:00Z'))).toBe(false);
    expect(majorityAt('2008-02-29').toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(birthCutoff(new Date('2028-02-29T00:00:00Z'))).toBe('2010-02-28');
  });
});
