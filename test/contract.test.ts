import { describe, expect, inject, it } from 'vitest';
import { app } from '../src/app';
import { CANONICAL_SERVER_URL, openApiDocument } from '../src/http/openapi';

/**
 * The frozen /api/v1 contract (docs/versioning.md). The diffs run in Node, in
 * test/global-setup.ts (Atlassian's openapi-diff plus the checks it lacks, see
 * scripts/lib/contract.mjs), against the document the code generates; the verdicts arrive here.
 */
const contract = inject('contract');
const summary = (findings: { code: string; location: string }[]) =>
  findings.map((f) => `${f.code} at ${f.location}`);

describe('the frozen /api/v1 contract', () => {
  it('has no breaking change against contract/v1.openapi.yaml', () => {
    expect(summary(contract.current.breaking), 'ship breaking changes under /api/v2/').toEqual([]);
    expect(summary(contract.current.unclassified), 'unclassified changes are not allowed either').toEqual([]);
    expect(contract.current.ok).toBe(true);
  });

  it('has a snapshot that includes every additive change (run `npm run contract:update`)', () => {
    expect(
      contract.snapshotIsCurrent,
      `compatible changes to /api/v1 not yet in the snapshot: ${summary(contract.current.nonBreaking).join('; ') || 'documentation only'}`,
    ).toBe(true);
  });

  it('covers every /api/v1 operation the app serves', () => {
    const generated = Object.keys(openApiDocument(app, CANONICAL_SERVER_URL).paths ?? {}).filter((p) =>
      p.startsWith('/api/v1/'),
    );
    const v1Routes = new Set(
      app.routes
        .filter((r) => r.path.startsWith('/api/v1/') && r.method !== 'ALL')
        .map((r) => r.path.replaceAll(/:(\w+)/g, '{$1}')),
    );
    expect([...v1Routes].sort()).toEqual([...generated].sort());
    expect(generated.length).toBeGreaterThan(0);
  });
});

describe('the breaking-change detector, proven on patched copies of the snapshot (contract/fixtures)', () => {
  const breaking = contract.fixtures.filter((f) => f.expect === 'breaking');
  const compatible = contract.fixtures.filter((f) => f.expect === 'compatible');

  it('has fixtures in both directions, for each change the versioning policy names', () => {
    const names = contract.fixtures.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'breaking-renamed-response-field',
        'breaking-new-required-request-field',
        'breaking-removed-path',
        'breaking-narrowed-enum',
        'breaking-renamed-operation-id',
        'breaking-removed-webhook-data-field',
        'breaking-retyped-webhook-data-field',
        'breaking-removed-webhook-event',
        'compatible-new-optional-request-field',
        'compatible-new-path',
        'compatible-new-webhook-data-field',
        'compatible-new-webhook-event',
      ]),
    );
    for (const f of contract.fixtures) expect(f.error, f.name).toBeUndefined();
  });

  it.each(breaking.map((f) => [f.name, f] as const))('fails on %s', (_name, fixture) => {
    expect(fixture.ok, fixture.description).toBe(false);
    expect(fixture.breaking.length, fixture.description).toBeGreaterThan(0);
  });

  it.each(compatible.map((f) => [f.name, f] as const))('passes %s', (_name, fixture) => {
    expect(summary(fixture.breaking), fixture.description).toEqual([]);
    expect(summary(fixture.unclassified), fixture.description).toEqual([]);
    expect(fixture.ok).toBe(true);
  });

  it('names the breaking difference precisely', () => {
    const codes = (name: string) =>
      contract.fixtures.find((f) => f.name === name)?.breaking.map((b) => b.code);
    expect(codes('breaking-renamed-response-field')).toContain('response.body.scope.add');
    expect(codes('breaking-new-required-request-field')).toContain('request.body.scope.remove');
    expect(codes('breaking-removed-path')).toEqual(['path.remove']);
    expect(codes('breaking-narrowed-enum')).toEqual(['response.enum.remove']);
    expect(codes('breaking-renamed-operation-id')).toEqual(['operation-id.change']);
    expect(codes('breaking-removed-operation-id')).toEqual(['operation-id.change']);
  });

  it('compares each webhook event (x-webhooks, WebhookEvent) as a response receivers read', () => {
    const found = (name: string) => contract.fixtures.find((f) => f.name === name)!;
    // A removed or retyped data field: the event's body admits what it did not (scope widened).
    for (const [name, type] of [
      ['breaking-removed-webhook-data-field', 'certificate.revoked'],
      ['breaking-retyped-webhook-data-field', 'submission.rated'],
    ] as const)
      expect(summary(found(name).breaking)).toEqual([
        `response.body.scope.add at paths./x-webhooks/${type}.post.responses.200.content.application/json.schema`,
      ]);
    // A removed event type is a removed operation; a new one, or a new field, is compatible.
    expect(summary(found('breaking-removed-webhook-event').breaking)).toEqual([
      'path.remove at paths./x-webhooks/certificate.revoked',
    ]);
    expect(summary(found('compatible-new-webhook-event').nonBreaking)).toEqual([
      'path.add at paths./x-webhooks/brief.closed',
    ]);
    expect(found('compatible-new-webhook-data-field').ok).toBe(true);
  });
});
