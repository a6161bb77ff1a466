// An optional secret (`wrangler secret put DIGILOCKER_API_KEY`): `wrangler types` declares only the
// required ones ([secrets] in wrangler.toml), and a server that is not a DigiLocker issuer has none.
interface Env {
  /** The shared key of DigiLocker's `x-digilocker-hmac` (docs/digilocker.md); unset: not an issuer. */
  DIGILOCKER_API_KEY?: string;
}
