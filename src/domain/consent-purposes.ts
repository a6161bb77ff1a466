/** What a person can consent to, each separately (DPDP Act §6). */
export const CONSENT_PURPOSES = [
  'ai_evaluation',
  'leaderboard',
  'public_verification',
  'integrity_corpus',
] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];
