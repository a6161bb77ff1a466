/**
 * The Data Protection Officer's business contact (DPDP Act 2023 §8(9)-(10), Rule 9): published so
 * a person can reach the officer who answers questions about the processing of their data.
 * It comes from configuration (`DPO_NAME`, `DPO_EMAIL`, `DPO_ADDRESS`); an unset value falls back
 * to the documented default below, so the endpoint never fails for want of configuration.
 */
export type DpoContact = { name: string; email: string; address: string; grievance: string; board: string };

export const DPO_DEFAULTS = {
  name: 'Data Protection Officer',
  email: 'dpo@example.com',
  address: 'Verification Platform, Data Protection Office, India',
} as const;

/** Where a person complains if the grievance answer does not satisfy them (§13(3)). */
export const BOARD_COMPLAINT =
  'If our answer to your grievance does not satisfy you, you may complain to the Data Protection Board ' +
  'of India (https://www.dpb.gov.in) under section 13(3) of the DPDP Act 2023.';

const orDefault = (value: string | undefined, fallback: string) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : fallback;
};

export function dpoContact(vars: {
  DPO_NAME?: string;
  DPO_EMAIL?: string;
  DPO_ADDRESS?: string;
}): DpoContact {
  return {
    name: orDefault(vars.DPO_NAME, DPO_DEFAULTS.name),
    email: orDefault(vars.DPO_EMAIL, DPO_DEFAULTS.email),
    address: orDefault(vars.DPO_ADDRESS, DPO_DEFAULTS.address),
    grievance: 'POST /api/dsr/grievance (signed in); we answer within 90 days.',
    board: BOARD_COMPLAINT,
  };
}
