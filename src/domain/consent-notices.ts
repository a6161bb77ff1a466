/**
 * The consent notices (DPDP Act 2023 §5–6): what a person reads before granting a purpose.
 * Every consent event cites the notice version it was given under, so a published version is
 * never edited: a material change is a new version, and the old one stays here so that past
 * receipts can still be read against the text the person actually saw.
 *
 * Grants must cite the current version (consent has to be informed by the notice in force);
 * a withdrawal may cite any published version, since withdrawing must never be harder than
 * granting (§6(4)).
 */
import type { ConsentPurpose } from '../db/schema';

export type PurposeNotice = {
  purpose: ConsentPurpose;
  title: string;
  /** The personal data used for this purpose. */
  data: string;
  /** Why, and what the person gets or loses by granting. */
  use: string;
  /** How to withdraw, and what withdrawing does. */
  withdraw: string;
};

export type ConsentNotice = {
  version: string;
  publishedAt: string;
  /** The data fiduciary and the general parts of the notice that every purpose shares. */
  fiduciary: string;
  purposes: PurposeNotice[];
  rights: string;
  grievance: string;
};

const V1: ConsentNotice = {
  version: 'v1',
  publishedAt: '2026-10-01T00:00:00.000Z',
  fiduciary:
    'Verification Platform is the data fiduciary for the personal data described here. Each purpose ' +
    'below is optional and separate: you may grant any, all or none of them, and your account, ' +
    'submissions and employer ratings work without any of them. This notice is available in English ' +
    'and, on request to the Data Protection Officer, in any language of the Eighth Schedule to the ' +
    'Constitution.',
  purposes: [
    {
      purpose: 'ai_evaluation',
      title: 'AI evaluation of your submissions',
      data:
        'The text, files, repository link and commit history you submit for a milestone, and the rubric of ' +
        'the brief.',
      use:
        'An automated model scores your submission against the rubric and checks its integrity ' +
        '(similarity to other submissions, writing-style signals, commit history). The score is ' +
        'shown to you and, after they have rated your work independently, to the employer. It is ' +
        'never the only basis of a decision: the employer rates every submission themselves.',
      withdraw:
        'Withdraw at any time with POST /api/consent (action "revoke"). Submissions made after that go ' +
        'straight to the employer without an AI evaluation; evaluations already made are kept until you ' +
        'ask for erasure.',
    },
    {
      purpose: 'leaderboard',
      title: 'Public leaderboard',
      data:
        'Your display name (or the public alias you choose), your number of certificates per domain and ' +
        'your average employer score.',
      use:
        'These appear on the public leaderboard of each domain you hold certificates in, which anyone ' +
        'can view and which partners may embed on their sites.',
      withdraw:
        'Withdraw at any time with POST /api/consent (action "revoke"). You are removed from every ' +
        'leaderboard at once; copies that others made while you were listed are outside our control.',
    },
    {
      purpose: 'public_verification',
      title: 'Your name on certificate verification',
      data: 'Your name, shown beside each certificate you hold.',
      use:
        'Anyone who has one of your certificate numbers (for example an employer you share it with) can ' +
        'confirm it was issued to you. Without this consent a verification still confirms the ' +
        'certificate, but not whose it is.',
      withdraw:
        'Withdraw at any time with POST /api/consent (action "revoke"). Your name stops appearing on ' +
        'verification at once.',
    },
  ],
  rights:
    'You may see every record we hold about you (GET /api/dsr/access), correct your name or email ' +
    '(PATCH /api/dsr/correction), have your data erased (DELETE /api/dsr/erasure) and nominate a ' +
    'person to exercise these rights if you die or become incapable (POST /api/dsr/nomination). ' +
    'Withdrawing consent does not affect processing that took place before you withdrew.',
  grievance:
    'Complaints go to our Data Protection Officer through POST /api/dsr/grievance; we answer within 90 ' +
    'days. If you are not satisfied with the answer you may complain to the Data Protection Board of ' +
    'India.',
};

/** Every published notice, oldest first. Never edit a published version: add a new one. */
export const CONSENT_NOTICES: readonly ConsentNotice[] = [V1];

export const NOTICE_VERSIONS = CONSENT_NOTICES.map((n) => n.version) as [string, ...string[]];

/** The notice new grants must cite. */
export const CURRENT_NOTICE_VERSION = CONSENT_NOTICES[CONSENT_NOTICES.length - 1]!.version;

export function noticeFor(version: string): ConsentNotice | undefined {
  return CONSENT_NOTICES.find((n) => n.version === version);
}
