import { defineConfig } from 'drizzle-kit';

// The fingerprint corpus shards (FINGERPRINTS_0..N-1): their own schema and migrations.
// `npm run db:generate:fingerprints`; apply with `wrangler d1 migrations apply FINGERPRINTS_<n>`.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/fingerprint-schema.ts',
  out: './migrations-fingerprints',
});
