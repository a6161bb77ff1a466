import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { TestProject } from 'vitest/node';
import { parse } from 'yaml';
import { type ContractVerdicts, contractVerdicts } from '../scripts/lib/contract.mjs';
import { loadApp } from '../scripts/lib/openapi-app.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    openapiValidation: { valid: boolean; version: string; errors: unknown };
    contract: ContractVerdicts;
  }
}
// (The same declarations are in test/env.d.ts for the workerd side.)

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs in Node before the workerd tests, for work workerd cannot do:
 * - validates the committed openapi.yaml with an independent validator (it reads its JSON
 *   Schemas from disk) and hands the verdict to test/openapi.test.ts, which also checks the
 *   committed document equals the generated one;
 * - diffs the generated document's `/api/v1/*` part against the frozen snapshot with
 *   Atlassian's openapi-diff, and every deliberately broken or additive copy in
 *   contract/fixtures/ too, for test/contract.test.ts.
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

  const { app, openApiDocument, CANONICAL_SERVER_URL } = await loadApp();
  const generated = JSON.parse(JSON.stringify(openApiDocument(app, CANONICAL_SERVER_URL)));
  project.provide('contract', await contractVerdicts(root, generated));
}
