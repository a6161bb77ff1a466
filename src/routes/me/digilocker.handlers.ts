import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import { requireCertificateNumber } from '../../services/certificates';
import { hasConsent } from '../../services/consent';
import {
  digilockerActivityOf,
  digilockerHolderView,
  setDigilockerEnabled,
} from '../../services/digilocker/holder';
import type * as routes from './digilocker.routes';

export const setMyCertificateDigiLocker: AppRouteHandler<typeof routes.setMyCertificateDigiLocker> = async (
  c,
) => {
  const number = requireCertificateNumber(c.req.valid('param').certificateNo);
  const { enabled } = c.req.valid('json');
  const cert = await setDigilockerEnabled(c.var.db, c.var.user.id, number, enabled);
  if (!cert) throw new ProblemError('not-found', 'You hold no certificate with this number.');
  const consented = await hasConsent(c.var.db, c.var.user.id, 'public_verification');
  return c.json(
    {
      certificateNo: cert.certificateNo,
      enabled: cert.digilockerEnabled,
      digilocker: digilockerHolderView(cert, c.env, consented),
    },
    200,
  );
};

export const myDigiLockerActivity: AppRouteHandler<typeof routes.myDigiLockerActivity> = async (c) =>
  c.json({ items: await digilockerActivityOf(c.var.db, c.var.user.id) }, 200);
