import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { TestProject } from 'vitest/node';
import { parse } from 'yaml';

declare module 'vitest' {
  export interface ProvidedContext {
    openapiValidation: { valid: boolean; version: string; errors: unknown };
  }
}
// (The same declaration is in test/env.d.ts for the workerd side.)

/**
 * Runs in Node before the workerd tests: validates the committed openapi.yaml with an
 * independent validator (it reads its JSON Schemas from disk, which workerd cannot), and
 * hands the verdict to test/openapi.test.ts. That file also checks the committed document
 * equals the generated one, so together they validate what the code produces.
 */
export default async function setup(project: TestProject) {
  const validator = new Validator();
  const document = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8'));
  const result = await validator.validate(document);
  project.provide('openapiValidation', {
    valid: result.valid,
    version: validator.version,
    errors: result.errors ?? null,
  });
}
