import type { AppRouteHandler } from '../../../http/types';
import { ProblemError } from '../../../lib/problem';
import { corpusFor } from '../../../services/corpus';
import { recordIntegrityDisclosures } from '../../../services/disclosures';
import { checkIntegrity, integrityContextFor } from '../../../services/integrity';
import type * as routes from './integrity.routes';

export const check: AppRouteHandler<typeof routes.checkIntegrity> = async (c) => {
  const { briefId, dueAt, authorEmails, template, ...material } = c.req.valid('json');
  const context = await integrityContextFor(c.var.db, { briefId, dueAt, authorEmails, template });
  if (!context) throw new ProblemError('not-found', 'No published brief has this id.');
  const sources = new Map<string, string>();
  const report = await checkIntegrity(corpusFor(c.env), c.var.engine, material, { ...context, sources });
  await recordIntegrityDisclosures(c.var.db, c.var.apiKey, sources, report);
  return c.json(report, 200);
};
