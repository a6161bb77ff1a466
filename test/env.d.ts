import type { D1Migration } from '@cloudflare/vitest-plugin';

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** migrations-fingerprints/: the corpus shards' schema. */
      FINGERPRINT_MIGRATIONS: D1Migration[];
      COMMITTED_OPENAPI: string;
      README_MD: string;
      /** `METHOD /path` → the file that defines it (scripts/lib/route-sources.mjs), as JSON. */
      ROUTE_SOURCES: string;
      /** test/fuzz.test.ts: runs per operation (`FUZZ_RUNS`), and a seed to replay (`FUZZ_SEED`). */
      FUZZ_RUNS: string;
      FUZZ_SEED: string;
      /** test/setup.ts: log each file's storage reset time when set. */
      DEBUG_TEST_SETUP: string;
      /** A retired Ed25519 signing key (private JWK; its public half is in CERT_PREVIOUS_PUBLIC_KEYS). */
      TEST_LEGACY_SIGNING_KEY: string;
    }
  }
}

/** One difference found by the contract check (scripts/lib/contract.mjs). */
type ContractFinding = { code: string; entity: string; action: string; location: string; source: string };
type ContractDiff = {
  ok: boolean;
  breaking: ContractFinding[];
  nonBreaking: ContractFinding[];
  unclassified: ContractFinding[];
  error?: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by test/global-setup.ts: the independent validator's verdict on openapi.yaml. */
    openapiValidation: { valid: boolean; version: string; errors: unknown };
    /** Set by test/global-setup.ts: the v1 contract check and its fixtures (scripts/lib/contract.mjs). */
    contract: {
      snapshotIsCurrent: boolean;
      current: ContractDiff;
      fixtures: (ContractDiff & { name: string; description: string; expect: 'breaking' | 'compatible' })[];
    };
  }
}
