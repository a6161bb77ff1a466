import { defineRoute } from '../../http/route';
import { json } from '../../lib/content';
import { DpoContactSchema } from './dpo.schemas';

export const getDpo = defineRoute({
  method: 'get',
  path: '/api/dpo',
  operationId: 'getDataProtectionOfficer',
  tags: ['Data rights'],
  summary: 'The Data Protection Officer',
  description:
    "Public: the Data Protection Officer's business contact (from the deployment's `DPO_NAME`, `DPO_EMAIL`, " +
    '`DPO_ADDRESS`), how to raise a grievance and how to complain to the Data Protection Board. Every consent ' +
    'notice links here.',
  security: [],
  responses: {
    200: {
      description: 'The contact.',
      headers: { 'Cache-Control': { schema: { type: 'string' }, description: 'Public, for an hour.' } },
      content: json(DpoContactSchema),
    },
  },
});
