// Bundled for Node by scripts/lib/demo-certificate.mjs: the Worker's own credential code, so the
// demo certificate is signed exactly as an issued one is.
export { isValidCertificateNumber } from '../../src/domain/certificates/certificate-number';
export { importSigningKey, signCredential } from '../../src/domain/certificates/credential';
