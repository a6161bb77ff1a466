/**
 * Loads `./d1-writes.ts` on the first write (decision 0328): a dynamic import, so the Worker's
 * entry, which exports the Durable Objects, does not evaluate D1's schema and the ORM at startup.
 *
 * The test suite replaces this module with one that imports the writes statically
 * (test/doubles/d1-writes.load.ts, vitest.config.ts): under the Workers test pool a Durable
 * Object's `import()` fetches the module through the test runner's own object, from the object's
 * I/O context (an alarm, say), and a run could hang on it. `npm run budget` checks the lazy
 * import in the production build.
 */
export const loadD1Writes = () => import('./d1-writes');
