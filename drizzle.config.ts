import { defineConfig } from 'drizzle-kit';

// Migrations are generated (never pushed): `npm run db:generate` after editing the schema,
// then commit the SQL in migrations/. Wrangler applies them (`wrangler d1 migrations apply`).
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations',
});
