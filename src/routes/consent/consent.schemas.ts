import { z } from '@hono/zod-openapi';
import { CONSENT_PURPOSES } from '../../db/schema';
import { CURRENT_NOTICE_VERSION } from '../../domain/consent-notices';

export const ConsentPurposeSchema = z.enum(CONSENT_PURPOSES).openapi('ConsentPurpose');

export const ConsentRequestSchema = z
  .object({
    purpose: ConsentPurposeSchema,
    action: z.enum(['grant', 'revoke']),
    noticeVersion: z.string().min(1).max(20).openapi({
      description:
        'The notice the person was shown (`GET /api/consent/notices/{version}`). Grants must cite the current one.',
      example: CURRENT_NOTICE_VERSION,
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
      }),
    ),
    rights: z.string(),
    grievance: z.string(),
  })
  .openapi('ConsentNotice', {
    description: 'A published consent notice (DPDP Act 2023 §5). Never edited once published.',
  });
