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
