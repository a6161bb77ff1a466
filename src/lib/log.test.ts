import { afterEach, describe, expect, it, vi } from 'vitest';
import { log, useLogLevel } from './log';

describe('log', () => {
  afterEach(() => {
    useLogLevel(undefined);
    vi.restoreAllMocks();
  });

  it('writes one JSON line per event at or above LOG_LEVEL, to the console method of its level', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const info = vi.spyOn(console, 'log').mockImplementation(() => {});
    useLogLevel('warn');
    log('info', 'not written');
    log('warn', 'cache fill failed', { key: 'k' });
    log('error', 'job failed', { jobId: 'j' });
    expect(info).not.toHaveBeenCalled();
    expect(JSON.parse(String(warn.mock.calls[0]?.[0]))).toEqual({
      level: 'warn',
      msg: 'cache fill failed',
      key: 'k',
    });
    expect(JSON.parse(String(error.mock.calls[0]?.[0]))).toEqual({
      level: 'error',
      msg: 'job failed',
      jobId: 'j',
    });
  });

  it('silent writes nothing; unset or unknown levels mean info', () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => {});
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    useLogLevel('silent');
    log('error', 'injected failure');
    expect(err).not.toHaveBeenCalled();
    useLogLevel('loud');
    log('debug', 'below info');
    log('info', 'job sweep');
    expect(out).toHaveBeenCalledTimes(1);
    useLogLevel(undefined);
    log('info', 'job sweep');
    expect(out).toHaveBeenCalledTimes(2);
  });
});
