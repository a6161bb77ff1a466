import { describe, expect, it } from 'vitest';
import {
  addChanges,
  CHANGES_WINDOW_MS,
  CLOCK_SKEW_MS,
  changesSince,
  emptyChangeLog,
  isPublishedChanges,
  pruneChanges,
} from './verification-changes';

describe('the verification change log', () => {
  it('keeps one entry per number, its latest change, oldest first', () => {
    let log = emptyChangeLog(0);
    log = addChanges(log, ['VP-A', 'VP-B'], 10);
    log = addChanges(log, ['VP-A'], 20);
    expect(log).toEqual({
      from: 0,
      clearedAt: 0,
      changes: [
        ['VP-B', 10],
        ['VP-A', 20],
      ],
    });
  });

  it('forgets changes older than the window, and says from when it is complete', () => {
    let log = addChanges(emptyChangeLog(0), ['VP-OLD'], 0);
    log = addChanges(log, ['VP-NEW'], CHANGES_WINDOW_MS + 5);
    expect(log.changes).toEqual([['VP-NEW', CHANGES_WINDOW_MS + 5]]);
    expect(log.from).toBe(5);
    expect(pruneChanges(log, CHANGES_WINDOW_MS + 5)).toBe(log);
  });

  it('empties itself and records clearedAt when a change is larger than the cap', () => {
    const log = addChanges(emptyChangeLog(0), ['VP-1', 'VP-2', 'VP-3'], 100, 2);
    expect(log).toEqual({ from: 0, clearedAt: 100, changes: [] });
    // The clearing itself leaves the window like any change.
    expect(pruneChanges(log, CHANGES_WINDOW_MS + 200).clearedAt).toBe(0);
  });
});

describe('what an isolate forgets on reading the log', () => {
  const published = (writtenAt: number, changes: [string, number][], from = 0, clearedAt = 0) => ({
    writtenAt,
    from,
    clearedAt,
    changes,
  });

  it('forgets everything on its first read (its memory predates what it knows)', () => {
    expect(changesSince(published(1000, []), null)).toEqual({ all: true, numbers: [] });
    expect(changesSince(null, null)).toEqual({ all: false, numbers: [] });
  });

  it('forgets nothing when the log has not been written again', () => {
    expect(changesSince(published(1000, [['VP-A', 900]]), 1000)).toEqual({ all: false, numbers: [] });
  });

  it('forgets the numbers changed since its last read, with the clock margin', () => {
    const value = published(60_000, [
      ['VP-OLD', 10_000],
      ['VP-EDGE', 50_000 - CLOCK_SKEW_MS + 1],
      ['VP-NEW', 55_000],
    ]);
    expect(changesSince(value, 50_000)).toEqual({
      all: false,
      numbers: [
        ['VP-EDGE', 50_000 - CLOCK_SKEW_MS + 1],
        ['VP-NEW', 55_000],
      ],
    });
  });

  it('forgets everything when the log does not reach back to its last read, was cleared since, or is gone', () => {
    expect(changesSince(published(600_000, [], 400_000), 100_000).all).toBe(true);
    expect(changesSince(published(600_000, [], 0, 500_000), 100_000).all).toBe(true);
    expect(changesSince(null, 100_000).all).toBe(true);
  });

  it('accepts only the published shape', () => {
    expect(isPublishedChanges(published(1, [['VP-A', 1]]))).toBe(true);
    expect(isPublishedChanges({ writtenAt: 1, from: 0, clearedAt: 0, changes: [['VP-A']] })).toBe(false);
    expect(isPublishedChanges('{}')).toBe(false);
    expect(isPublishedChanges(null)).toBe(false);
  });
});
