/** The DigiLocker issuer settings (docs/digilocker.md): small, so health and the holder's views can read them. */

export type DigiLockerConfig = { orgId: string; docType: string; apiKey: string };

const setting = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The issuer's settings, or null while any of the three is missing. */
export function digilockerConfig(
  env: Partial<Pick<Env, 'DIGILOCKER_ORG_ID' | 'DIGILOCKER_DOC_TYPE' | 'DIGILOCKER_API_KEY'>>,
): DigiLockerConfig | null {
  const orgId = setting(env.DIGILOCKER_ORG_ID);
  const docType = setting(env.DIGILOCKER_DOC_TYPE);
  const apiKey = setting(env.DIGILOCKER_API_KEY);
  return orgId && docType && apiKey ? { orgId, docType, apiKey } : null;
}
