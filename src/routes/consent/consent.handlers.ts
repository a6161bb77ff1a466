import { CURRENT_NOTICE_VERSION, noticeFor, noticeLanguages, noticeText } from '../../domain/consent-notices';
import { noticeRecipients } from '../../domain/processors';
import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import { recordSubjectConsent, self } from '../data-subject';
import type * as routes from './consent.routes';

export const record: AppRouteHandler<typeof routes.recordConsent> = async (c) => {
  return c.json(await recordSubjectConsent(c.var.db, c.env, self(c.var.user), c.req.valid('json')), 201);
};

export const notice: AppRouteHandler<typeof routes.getNotice> = (c) => {
  const found = noticeFor(c.req.valid('param').version);
  if (!found) throw new ProblemError('not-found', 'No consent notice with this version.');
  const { language, text } = noticeText(found, c.req.valid('query').lang);
  return c.json(
    {
      version: found.version,
      publishedAt: found.publishedAt,
      current: found.version === CURRENT_NOTICE_VERSION,
      ...text,
      language,
      languages: noticeLanguages(found),
      dpo: '/api/dpo',
      recipients: [...noticeRecipients(language)],
    },
    200,
    { 'Cache-Control': 'public, max-age=86400', 'Content-Language': language },
  );
};
