/**
 * The test suite's `src/durable/d1-writes.load.ts` (vitest.config.ts aliases it): the writes
 * imported statically, so a Durable Object never fetches a module from its own I/O context.
 */
import * as writes from '../../src/durable/d1-writes';

export const loadD1Writes = async () => writes;
