import { applyD1Migrations, env } from 'cloudflare:test';

// Storage is isolated per test file; migrations are idempotent (tracked in d1_migrations).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.FINGERPRINTS_0, env.FINGERPRINT_MIGRATIONS);
await applyD1Migrations(env.FINGERPRINTS_1, env.FINGERPRINT_MIGRATIONS);
