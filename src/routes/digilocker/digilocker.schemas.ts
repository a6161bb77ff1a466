import { z } from '@hono/zod-openapi';

/**
 * The XML messages of DigiLocker's issuer API (API Setu "DigiLocker Issuer APIs" 3.0.0), described
 * with the specification's own names: attributes are marked `xml.attribute`, the root element is
 * named by `xml.name`. The bodies are XML; these schemas document them.
 */
const attribute = (description: string, example?: string) =>
  z
    .string()
    .max(256)
    .openapi({ description, xml: { attribute: true }, ...(example ? { example } : {}) });
const element = (description: string, example?: string) =>
  z.string().openapi({ description, ...(example ? { example } : {}) });
/** A field DigiLocker sends: bounded like everything a request carries (the parser caps them too). */
const sent = (description: string, example?: string) =>
  z
    .string()
    .max(512)
    .openapi({ description, ...(example ? { example } : {}) });

const envelope = {
  ver: attribute('API version.', '1.0'),
  ts: attribute(
    'The request time: ISO 8601 with an offset (`2026-12-02T08:30:00+05:30`), or seconds or milliseconds since ' +
      'the epoch. More than 15 minutes from the server clock is refused (401, `Status="0"`).',
    '2026-12-02T08:30:00+05:30',
  ),
  txn: attribute(
    'Transaction id. A repeated one with the same body gets the first answer again; with another body, 409.',
    'a1b2c3d4',
  ),
  orgId: attribute("The issuer's id on DigiLocker (`DIGILOCKER_ORG_ID`).", 'in.example.vp'),
  format: attribute('`pdf` (the default when absent), `xml` or `both`.', 'both'),
};

export const PullUriRequestSchema = z
  .object({
    ...envelope,
    DocDetails: z.object({
      DocType: sent('The document type searched for (`DIGILOCKER_DOC_TYPE`).', 'VPCER'),
      DigiLockerId: sent('The DigiLocker account (36 characters).', '123e4567-e89b-12d3-a456-426655440000'),
      FullName: sent(
        "The person's full name as on Aadhaar: compared with the holder's, case and spaces aside.",
      ),
      DOB: sent('Their date of birth, `DD-MM-YYYY`: compared with the one recorded at signup.', '31-12-1990'),
      UDF1: sent('The certificate number (the registered search field).', 'VP-7K3M-Q9TD-2XWV'),
    }),
  })
  .openapi('PullURIRequest', { xml: { name: 'PullURIRequest' } });

const ResponseStatusSchema = z.object({
  Status: attribute(
    '`1` success, `0` error (no such certificate for this person, or refused), `9` pending.',
    '1',
  ),
  ts: attribute('The `ts` of the request.'),
  txn: attribute('The `txn` of the request.'),
});

export const PullUriResponseSchema = z
  .object({
    ResponseStatus: ResponseStatusSchema,
    DocDetails: z
      .object({
        DocType: element('As sent.').optional(),
        DigiLockerId: element('As sent.').optional(),
        FullName: element('As sent.').optional(),
        DOB: element('As sent.').optional(),
        UDF1: element('As sent.').optional(),
        URI: element(
          '`{orgId}-{docType}-{certificateNo}`.',
          'in.example.vp-VPCER-VP-7K3M-Q9TD-2XWV',
        ).optional(),
        DocContent: element(
          'The PDF (the holder’s own download), base64; when `format` is `pdf`, `both` or absent.',
        ).optional(),
        DataContent: element(
          'The certificate data as XML, base64; when `format` is `xml` or `both`.',
        ).optional(),
      })
      .openapi({
        description: 'Empty when `Status` is `0`: a refusal does not say which field did not match.',
      }),
  })
  .openapi('PullURIResponse', { xml: { name: 'PullURIResponse' } });

export const PullDocRequestSchema = z
  .object({
    ...envelope,
    DocDetails: z.object({
      URI: sent('The URI a Pull URI answer gave.', 'in.example.vp-VPCER-VP-7K3M-Q9TD-2XWV'),
      DigiLockerId: sent('The DigiLocker account.').optional(),
      FullName: sent('Optional (v1.12 no longer sends it); when sent, it must be the holder’s.').optional(),
      DOB: sent('Optional; when sent, it must be the holder’s (`DD-MM-YYYY`).').optional(),
    }),
  })
  .openapi('PullDocRequest', { xml: { name: 'PullDocRequest' } });

export const PullDocResponseSchema = z
  .object({
    ResponseStatus: ResponseStatusSchema,
    DocDetails: z.object({
      DocContent: element('The PDF, base64; when `format` is `pdf`, `both` or absent.').optional(),
      DataContent: element(
        'The certificate data as XML, base64; when `format` is `xml` or `both`.',
      ).optional(),
    }),
  })
  .openapi('PullDocResponse', { xml: { name: 'PullDocResponse' } });

export const DigiLockerHolderSchema = z
  .object({
    enabled: z
      .boolean()
      .openapi({ description: 'Your switch: on unless you turned DigiLocker fetching off.' }),
    available: z.boolean().openapi({
      description:
        'Whether DigiLocker would be given it now: switched on, valid (as verification shows it), and your ' +
        '`public_verification` consent standing.',
    }),
    reason: z
      .enum(['disabled', 'not_valid', 'no_public_verification_consent'])
      .nullable()
      .openapi({ description: 'Why not, when `available` is false.' }),
    documentType: z.string().openapi({
      description: 'The document type to look for in the DigiLocker app (under this issuer).',
      example: 'VPCER',
    }),
    certificateNumber: z
      .string()
      .openapi({ description: 'The number to enter there.', example: 'VP-7K3M-Q9TD-2XWV' }),
    issuerId: z.string().openapi({ description: "The issuer's id on DigiLocker.", example: 'in.example.vp' }),
    uri: z.string().openapi({ description: 'The document’s URI in DigiLocker.' }),
  })
  .openapi('DigiLockerHolderView');

export const DigiLockerSwitchSchema = z
  .object({ enabled: z.boolean().openapi({ description: 'False: DigiLocker is refused this certificate.' }) })
  .strict()
  .openapi('DigiLockerSwitchRequest');
