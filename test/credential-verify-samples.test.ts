/**
 * The Open Badges 3.0 specification's sample credentials (test/fixtures/ob3/samples, verbatim, with
 * source and licence in test/fixtures/ob3/README.md) through the verifier, as their issuers would
 * hand them over: signed as VC-JWTs (ES256) with a key on the issuer's own origin, the issuer's
 * host answered by the issuers double. What the specification implies for each:
 *
 * - the AchievementCredentials with no status are `valid` (the issuer's Profile is not published
 *   by the double: a warning only);
 * - the "Complete OpenBadgeCredential" names a `1EdTechRevocationList` status, which the double
 *   does not publish: `unverifiable`, with everything else passed;
 * - the EndorsementCredential is not an AchievementCredential: `invalid` at `context`;
 * - unsigned (the JSON as printed in the specification, no `proof`): `invalid` at the signature
 *   (nothing secures it), with the context and the official schema passed.
 */
import { exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import achievementAlignmentCase from './fixtures/ob3/samples/achievementAlignmentCase.json';
import achievementAlignmentCe from './fixtures/ob3/samples/achievementAlignmentCe.json';
import basic from './fixtures/ob3/samples/basicOpenBadgeCredential.json';
import endorsement from './fixtures/ob3/samples/endorsement.json';
import full from './fixtures/ob3/samples/fullOpenBadge.json';
import skillAssertionCase from './fixtures/ob3/samples/skillAssertionCase.json';
import skillAssertionCtdl from './fixtures/ob3/samples/skillAssertionCtdl.json';
import { checkOf, publish, resolveTo, signAs, verify } from './foreign-issuers';

const SAMPLES: [string, Record<string, unknown>, string][] = [
  ['basicOpenBadgeCredential', basic, 'valid'],
  ['achievementAlignmentCase', achievementAlignmentCase, 'valid'],
  ['achievementAlignmentCe', achievementAlignmentCe, 'valid'],
  ['skillAssertionCase', skillAssertionCase, 'valid'],
  ['skillAssertionCtdl', skillAssertionCtdl, 'valid'],
  ['fullOpenBadge', full, 'unverifiable'],
  ['endorsement', endorsement, 'invalid'],
];

const issuerIdOf = (credential: Record<string, unknown>) =>
  typeof credential.issuer === 'string' ? credential.issuer : (credential.issuer as { id: string }).id;

/** A key for the sample's issuer, published on the issuer's own origin. */
async function keyOnIssuerOrigin(credential: Record<string, unknown>) {
  const origin = new URL(issuerIdOf(credential));
  await resolveTo(origin.hostname, '93.184.215.14');
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const path = `/keys/${crypto.randomUUID()}`;
  const kid = `${origin.origin}${path}`;
  // A verification method naming its controller (the issuer): a key merely on the issuer's
  // origin does not speak for it (another tenant's could be there too).
  await publish(origin.host, path, {
    id: kid,
    type: 'JsonWebKey',
    controller: issuerIdOf(credential),
    publicKeyJwk: { ...(await exportJWK(publicKey)), kid },
  });
  return { alg: 'ES256' as const, kid, privateKey: privateKey as CryptoKey };
}

describe('the specification’s sample credentials', () => {
  for (const [name, sample, expected] of SAMPLES) {
    it(`${name}, signed by its issuer: ${expected}`, { timeout: 60_000 }, async () => {
      const report = await verify({ credential: await signAs(await keyOnIssuerOrigin(sample), sample) });
      expect(report.verdict, `${report.summary} ${JSON.stringify(report.checks)}`).toBe(expected);
      if (expected !== 'invalid') {
        for (const check of ['context', 'schema', 'signature', 'claims', 'times'])
          expect(checkOf(report, check)?.outcome, check).toBe('passed');
      } else {
        expect(checkOf(report, 'context')?.outcome).toBe('failed');
      }
      if (name === 'fullOpenBadge')
        expect(checkOf(report, 'status')?.detail).toContain('1EdTechRevocationList');
    });
  }

  it('unsigned, as printed: invalid at the signature (no proof), the structure checked', {
    timeout: 60_000,
  }, async () => {
    for (const [, sample, expected] of SAMPLES) {
      const report = await verify({ credential: JSON.stringify(sample) });
      expect(report.verdict).toBe('invalid');
      if (expected !== 'invalid') {
        expect(checkOf(report, 'schema')?.outcome).toBe('passed');
        expect(checkOf(report, 'signature')?.detail).toMatch(/no proof/);
      }
    }
  });
});
