import type { D1Migration } from '@cloudflare/vitest-plugin';

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      COMMITTED_OPENAPI: string;
      README_MD: string;
    }
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by test/global-setup.ts: the independent validator's verdict on openapi.yaml. */
    openapiValidation: { valid: boolean; version: string; errors: unknown };
  }
}
