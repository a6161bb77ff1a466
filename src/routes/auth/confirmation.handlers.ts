import type { AppRouteHandler } from '../../http/types';
import { confirmationStatus, confirmEmail, resendConfirmation } from '../../services/email-confirmations';
import type * as routes from './confirmation.routes';

export const confirm: AppRouteHandler<typeof routes.confirmEmail> = async (c) =>
  c.json(await confirmEmail(c.var.db, c.env, c.req.valid('query').token), 200);

export const status: AppRouteHandler<typeof routes.getEmailConfirmation> = async (c) =>
  c.json(await confirmationStatus(c.var.db, c.var.user.id), 200);

export const resend: AppRouteHandler<typeof routes.resendEmailConfirmation> = async (c) => {
  const sent = await resendConfirmation(c.var.db, c.env, c.var.user.id);
  return c.json({ email: sent.email, expiresAt: sent.expiresAt.toISOString() }, 202);
};
