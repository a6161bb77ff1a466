#!/usr/bin/env node
// `npm run seed`: applies pending D1 migrations and (re-)seeds the local database with demo
// data. Safe to run any time, also while `npm run dev` is running: existing rows are kept,
// except that the admin's email and password are refreshed from .dev.vars.
import { ensureDevVars } from './lib/dev-vars.mjs';
import { seedLocalDatabase } from './lib/seed.mjs';
import { applyLocalMigrations } from './lib/wrangler.mjs';

try {
  ensureDevVars();
  await applyLocalMigrations();
  await seedLocalDatabase();
} catch (error) {
  console.error(`seed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
