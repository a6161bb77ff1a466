import { defineRoute } from '../../http/route';
import { sessionAuth } from '../../http/route-auth';
import { json } from '../../lib/content';
import { CertificateNoParams } from '../certificates/certificates.schemas';
import { DigiLockerSwitchSchema } from '../digilocker/digilocker.schemas';
import { DigiLockerActivitySchema, MyCertificateDigiLockerSchema } from './digilocker.schemas';

export const setMyCertificateDigiLocker = defineRoute({
  method: 'patch',
  path: '/api/me/certificates/{certificateNo}/digilocker',
  operationId: 'setMyCertificateDigiLocker',
  tags: ['Certificates'],
  summary: 'Turn DigiLocker fetching on or off for one of your certificates',
  description:
    'On by default. Off: DigiLocker’s Pull URI and Pull Doc requests for this certificate are refused from now on ' +
    '(`Status="0"`, as for a number that does not exist); the certificate still verifies as before. The holder only ' +
    '(anyone else gets 404). Answers the setting and, when this server is a DigiLocker issuer, how to fetch it ' +
    '(`digilocker`, null otherwise). Audited.',
  ...sessionAuth(),
  request: {
    params: CertificateNoParams,
    body: { required: true, content: json(DigiLockerSwitchSchema) },
  },
  responses: {
    200: { description: 'The setting now.', content: json(MyCertificateDigiLockerSchema) },
  },
});

export const myDigiLockerActivity = defineRoute({
  method: 'get',
  path: '/api/me/digilocker/activity',
  operationId: 'listMyDigiLockerActivity',
  tags: ['Certificates'],
  summary: 'What DigiLocker asked about your certificates',
  description:
    'The last 50 DigiLocker requests that named one of your certificates, newest first: when, which request, the ' +
    'outcome and whether the document was given. Refused ones too (someone searching with your number and another ' +
    'name or date of birth). The same entries are in your access export (`audit-log.json`).',
  ...sessionAuth(),
  responses: {
    200: { description: 'Newest first.', content: json(DigiLockerActivitySchema) },
  },
});
