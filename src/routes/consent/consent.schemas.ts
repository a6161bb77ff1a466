import { z } from '@hono/zod-openapi';
import { CONSENT_PURPOSES } from '../../db/schema';
import { CURRENT_NOTICE_VERSION } from '../../domain/consent-notices';
import { NOTICE_LANGUAGE_CODES } from '../../domain/notice-languages';

export const NoticeLanguageSchema = z.enum(NOTICE_LANGUAGE_CODES).openapi('NoticeLanguage', {
  description:
    'BCP 47 code of English or one of the 22 languages of the Eighth Schedule to the Constitution (DPDP §5(3)).',
  example: 'hi',
});

export const ConsentPurposeSchema = z.enum(CONSENT_PURPOSES).openapi('ConsentPurpose');

export const ConsentRequestSchema = z
  .object({
    purpose: ConsentPurposeSchema,
    action: z.enum(['grant', 'revoke']),
    noticeVersion: z
      .string()
      .min(1)
      .max(20)
      .openapi({
        description:
          'The notice the person was shown (`GET /api/consent/notices/{version}`). Grants must cite the current one; ' +
          'a withdrawal may cite any version that describes the purpose (the current one always does).',
        example: CURRENT_NOTICE_VERSION,
      }),
    language: NoticeLanguageSchema.optional().openapi({
      description:
        'The language the person read the notice in (default `en`); it must be one the notice is available in. ' +
        'Recorded on the receipt.',
    }),
  })
  .strict()
  .openapi('ConsentRequest');

export const ConsentReceiptSchema = z
  .object({
    id: z.string(),
    purpose: ConsentPurposeSchema,
    action: z.enum(['grant', 'revoke']),
    noticeVersion: z.string(),
    language: z
      .string()
      .openapi({ description: 'The language of the notice the person read.', example: 'en' }),
    createdAt: z.string().datetime(),
  })
  .openapi('ConsentReceipt', { description: 'One entry of the append-only consent ledger.' });

export const PurposeStateSchema = z
  .object({
    state: z.enum(['granted', 'revoked', 'never']),
    since: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: 'When the latest grant or withdrawal was made.' }),
    noticeVersion: z.string().nullable(),
  })
  .openapi('ConsentState');

export const ConsentsSchema = z
  .object({
    currentNoticeVersion: z.string().openapi({ example: CURRENT_NOTICE_VERSION }),
    states: z.object({
      ai_evaluation: PurposeStateSchema,
      leaderboard: PurposeStateSchema,
      public_verification: PurposeStateSchema,
      integrity_corpus: PurposeStateSchema,
    }),
    history: z
      .array(ConsentReceiptSchema)
      .openapi({ description: 'Grants and withdrawals, newest first: one page of `limit`.' }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'The `cursor` of the next page of the history; null on the last page.' }),
  })
  .openapi('Consents');

export const NoticeVersionParams = z.object({
  version: z
    .string()
    .min(1)
    .max(20)
    .openapi({ param: { name: 'version', in: 'path' }, example: CURRENT_NOTICE_VERSION }),
});

export const NoticeQuery = z.object({
  lang: NoticeLanguageSchema.optional().openapi({
    param: { name: 'lang', in: 'query' },
    description:
      'The language to read the notice in (default `en`). A language the notice has not been translated into yet ' +
      'is answered in English; `language` and `Content-Language` say which was served.',
  }),
});

export const ConsentNoticeSchema = z
  .object({
    version: z.string(),
    publishedAt: z.string().datetime(),
    current: z.boolean().openapi({ description: 'Whether new grants must cite this version.' }),
    fiduciary: z.string(),
    purposes: z.array(
      z.object({
        purpose: ConsentPurposeSchema,
        title: z.string(),
        data: z.string().openapi({ description: 'The personal data used for this purpose.' }),
        use: z.string().openapi({ description: 'What it is used for.' }),
        withdraw: z.string().openapi({ description: 'How to withdraw, and what that does.' }),
        complain: z
          .string()
          .openapi({ description: 'How to complain: the DPO, then the Data Protection Board of India.' }),
      }),
    ),
    rights: z.string(),
    grievance: z.string(),
    language: NoticeLanguageSchema.openapi({ description: 'The language of this text.' }),
    languages: z
      .array(NoticeLanguageSchema)
      .openapi({ description: 'Every language this version can be read in (`?lang=`).' }),
    dpo: z
      .string()
      .openapi({ description: 'Where the Data Protection Officer’s contact is.', example: '/api/dpo' }),
    recipients: z
      .array(z.object({ name: z.string(), role: z.string(), data: z.string(), when: z.string() }))
      .optional()
      .openapi({
        description:
          'Who else is given personal data at the person’s own request, beyond our Data Processors (e.g. DigiLocker, ' +
          'when they fetch a certificate into it): what, and when. In `language`. Not part of the versioned text: ' +
          'the list is the one in force now, for every version.',
      }),
  })
  .openapi('ConsentNotice', {
    description: 'A published consent notice (DPDP Act 2023 §5). Never edited once published.',
  });
