import { z } from '@hono/zod-openapi';
import { nullableRef } from '../../http/route';
import { DigiLockerHolderSchema } from '../digilocker/digilocker.schemas';

export const MyCertificateDigiLockerSchema = z
  .object({
    certificateNo: z.string(),
    enabled: z.boolean().openapi({ description: 'Whether DigiLocker may fetch this certificate.' }),
    digilocker: nullableRef(DigiLockerHolderSchema).openapi({
      description: 'How to fetch it into DigiLocker; null when this server is not a DigiLocker issuer.',
    }),
  })
  .openapi('MyCertificateDigiLocker');

export const DigiLockerActivitySchema = z
  .object({
    items: z
      .array(
        z.object({
          at: z.string().datetime(),
          request: z
            .enum(['pull_uri', 'pull_doc'])
            .openapi({ description: 'Pull URI (a search) or Pull Doc (opening it).' }),
          outcome: z.string().openapi({
            description:
              '`issued` (the document was given), `not_found` (another name or date of birth, or not givable: off, ' +
              'invalid, no consent), `refused_timestamp`, `txn_reused`.',
            example: 'issued',
          }),
          certificateNo: z.string().nullable(),
          given: z.boolean().openapi({ description: 'Whether DigiLocker was given the document.' }),
        }),
      )
      .max(50),
  })
  .openapi('MyDigiLockerActivity');
