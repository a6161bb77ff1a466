import { hiddenCharacterReason, mixedScriptReason } from '../domain/alias';
import { issuerScriptReason } from '../domain/issuer-names';
import { shownName } from './validation';

/**
 * An organisation's (an issuer's) name: a `shownName` that also does not mix Latin letters with
 * another script anywhere in it (`issuerScriptReason`: "Demo Hiring Cⲟ" with a Coptic ⲟ is a 422).
 * Whether it reads as another verified organisation's name is the service's check (409).
 */
export const organisationName = (max: number) =>
  shownName(max).superRefine((value, ctx) => {
    if (hiddenCharacterReason(value) || mixedScriptReason(value)) return;
    const reason = issuerScriptReason(value);
    if (reason) ctx.addIssue({ code: 'custom', message: reason });
  });
