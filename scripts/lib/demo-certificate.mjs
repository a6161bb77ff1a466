// The demo certificate: a real certificate for the demo candidate, with the rows an issued one
// has (submission to the final milestone, completed AI evaluation, the employer's `pass` rating)
// and a credential signed by the Worker's own code with the local CERT_SIGNING_KEY.
//
// Its number is fixed (DEMO_CERTIFICATE_NO), so the README can link it from a fresh clone. The
// credential names the dev server's base URL as its issuer and is re-signed on every seed, so it
// follows `npm run dev -- --port N`. (ES256 signatures are randomised, so each seed writes a new
// signature over the same credential.)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from './wrangler.mjs';

/** Valid (its check symbol matches); asserted when the credential is signed. */
export const DEMO_CERTIFICATE_NO = 'VP-DEM0-CERT-1FY3';

/**
 * @returns {Promise<{
 *   isValidCertificateNumber: (n: string) => boolean,
 *   importSigningKey: (secret: string, baseUrl: string) => Promise<unknown>,
 *   signCredential: (input: Record<string, unknown>, key: unknown) => Promise<string>,
 * }>}
 */
async function loadCredentialCode() {
  const outfile = join(ROOT, 'node_modules', `.cache-demo-credential-${process.pid}-${Date.now()}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'scripts', 'lib', 'demo-credential-entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    packages: 'external',
    logLevel: 'warning',
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true });
  }
}

/**
 * Signs the demo certificate's credential (the fields of `CredentialInput` in credential.ts,
 * without `certificateNo` and `baseUrl`).
 * @param {{ signingKey: string, baseUrl: string } & Record<string, unknown>} input
 * @returns {Promise<string>} the VC-JWT
 */
export async function signDemoCredential({ signingKey, baseUrl, ...rest }) {
  const code = await loadCredentialCode();
  if (!code.isValidCertificateNumber(DEMO_CERTIFICATE_NO)) {
    throw new Error(`DEMO_CERTIFICATE_NO ${DEMO_CERTIFICATE_NO} has a wrong check symbol`);
  }
  const key = await code.importSigningKey(signingKey, baseUrl);
  return code.signCredential({ ...rest, certificateNo: DEMO_CERTIFICATE_NO, baseUrl }, key);
}
