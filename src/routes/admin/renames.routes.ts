/** `POST /api/admin/organisations/{id}/rename`: an admin's review of a verified organisation's rename. */

import { defineRoute, IdParams } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { OrganisationSchema } from '../me/me.schemas';
import { RenameReviewSchema } from './renames.schemas';

export const reviewOrganisationRename = defineRoute({
  method: 'post',
  path: '/api/admin/organisations/{id}/rename',
  operationId: 'reviewOrganisationRename',
  tags: ['Organisations'],
  summary: "Approve or refuse a verified organisation's rename",
  description:
    'A verified organisation that renames itself keeps its name (and its certificates the signed name) while the ' +
    'new one waits as `pendingName` (`GET /api/admin/organisations?renamePending=true` lists them). `approve` makes ' +
    'it the name: credentials signed after carry it, earlier ones keep the name signed into them and verify with ' +
    '"now known as". `refuse` drops it. `name` is the name you reviewed: a 409 when the waiting name is another ' +
    '(changed or withdrawn since) or nothing waits, and when approving a name another verified organisation has ' +
    'taken meanwhile (compared by confusable skeleton). Audited with the reason.',
  ...sessionAuth('admin'),
  request: { params: IdParams, body: { required: true, content: json(RenameReviewSchema) } },
  errors: [409],
  responses: {
    200: { description: 'The organisation after the decision.', content: json(OrganisationSchema) },
  },
});
