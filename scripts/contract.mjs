#!/usr/bin/env node
// The frozen v1 contract from the command line (docs/versioning.md):
//   node scripts/contract.mjs check    diff the generated /api/v1 document against contract/v1.openapi.yaml
//   node scripts/contract.mjs update   the same, then rewrite the snapshot, but only if nothing breaks
// `npm run contract:update` regenerates openapi.yaml first, then runs `update`.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { diffContract, readSnapshot, SNAPSHOT_PATH, snapshotYaml, v1Subset } from './lib/contract.mjs';
import { loadApp } from './lib/openapi-app.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv[2] ?? 'check';
if (command !== 'check' && command !== 'update') {
  console.error('usage: node scripts/contract.mjs check|update');
  process.exit(2);
}

const { app, openApiDocument, CANONICAL_SERVER_URL } = await loadApp();
const current = v1Subset(JSON.parse(JSON.stringify(openApiDocument(app, CANONICAL_SERVER_URL))));
const result = await diffContract(readSnapshot(root), current);
/** @param {string} title @param {import('./lib/contract.mjs').Finding[]} findings */
const list = (title, findings) => {
  if (findings.length === 0) return;
  console.log(`${title}:`);
  for (const f of findings) console.log(`  ${f.code}  ${f.location}`);
};
list('Breaking', result.breaking);
list('Unclassified (treated as breaking)', result.unclassified);
list('Compatible', result.nonBreaking);

if (!result.ok) {
  console.error(
    '\nThe /api/v1 contract would break. Ship the change under /api/v2/ instead (docs/versioning.md); the snapshot is unchanged.',
  );
  process.exit(1);
}
if (command === 'update') {
  writeFileSync(join(root, SNAPSHOT_PATH), snapshotYaml(current));
  console.log(`${SNAPSHOT_PATH} updated. Record the change under "Unreleased" in CHANGELOG.md.`);
} else {
  console.log('No breaking change to /api/v1.');
}
