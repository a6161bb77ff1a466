/**
 * Records for the data-rights tests, inserted directly through Drizzle: a brief with its
 * rubric and milestones, and a candidate's submission with fingerprints, evaluation, employer
 * rating and certificate, as the verification workflow would leave them.
 */
import { env } from 'cloudflare:test';
import { getDb } from '../src/db/client';
import {
  briefs,
  certificates,
  employerRatings,
  evaluations,
  fingerprintFrequencies,
  fingerprints,
  milestones,
  rubrics,
  submissions,
} from '../src/db/schema';
import { generateCertificateNumber } from '../src/domain/certificates/certificate-number';

export const db = () => getDb(env.DB);

export async function seedBrief(employerId: string, domain = 'web') {
  const briefId = crypto.randomUUID();
  const milestoneId = crypto.randomUUID();
  await db().batch([
    db()
      .insert(briefs)
      .values({
        id: briefId,
        employerId,
        title: `Build a status page (${domain})`,
        domain,
        description: 'A public status page for three services.',
        deliverables: ['status page'],
        successCriteria: ['shows outages within a minute'],
        durationDays: 7,
        state: 'published',
        publishedAt: new Date(),
      }),
    db()
      .insert(rubrics)
      .values({
        briefId,
        criteria: [
          {
            id: 'c1',
            name: 'Works',
            description: 'It works',
            weight: 100,
            levels: [{ score: 5, descriptor: 'All of it' }],
            source: 'shows outages within a minute',
          },
        ],
        passThreshold: 3,
        engine: 'local',
      }),
    db()
      .insert(milestones)
      .values({
        id: milestoneId,
        briefId,
        position: 1,
        day: 7,
        title: 'Ship it',
        tasks: ['ship'],
        tutorialLinks: [],
        isFinal: true,
      }),
  ]);
  return { briefId, milestoneId };
}

/** A rated, certified submission of `candidateId` on the employer's brief. */
export async function seedCertifiedWork(
  candidate: { id: string; email: string },
  brief: { briefId: string; milestoneId: string; employerId: string; domain?: string },
) {
  const submissionId = crypto.randomUUID();
  const evaluationId = crypto.randomUUID();
  const certificateId = crypto.randomUUID();
  const certificateNo = generateCertificateNumber();
  const hashes = [Math.floor(Math.random() * 2 ** 40), Math.floor(Math.random() * 2 ** 40)];
  const domain = brief.domain ?? 'web';
  await db().batch([
    db()
      .insert(submissions)
      .values({
        id: submissionId,
        candidateId: candidate.id,
        briefId: brief.briefId,
        milestoneId: brief.milestoneId,
        text: 'My status page polls each service every 30 seconds.',
        files: [{ path: 'README.md', content: '# Status page' }],
        repositoryUrl: 'https://git.example.com/status',
        commits: [
          {
            sha: 'a1b2c3d',
            authorEmail: candidate.email,
            authoredAt: new Date().toISOString(),
            message: 'first',
            additions: 10,
            deletions: 0,
          },
        ],
        state: 'rated',
      }),
    db()
      .insert(fingerprints)
      .values(hashes.map((hash, position) => ({ hash, submissionId, position }))),
    db()
      .insert(fingerprintFrequencies)
      .values(hashes.map((hash) => ({ hash, submissions: 1 }))),
    db()
      .insert(evaluations)
      .values({
        id: evaluationId,
        submissionId,
        state: 'completed',
        aiEvaluated: true,
        criterionScores: [{ criterionId: 'c1', score: 4, explanation: 'Solid' }],
        overallScore: 4,
        verdict: 'pass',
        engine: 'local',
        completedAt: new Date(),
      }),
    db().insert(employerRatings).values({
      evaluationId,
      employerId: brief.employerId,
      briefId: brief.briefId,
      domain,
      score: 4,
      verdict: 'pass',
      comment: 'Good work',
      aiVerdict: 'pass',
    }),
    db().insert(certificates).values({
      id: certificateId,
      certificateNo,
      holderId: candidate.id,
      briefId: brief.briefId,
      employerId: brief.employerId,
      submissionId,
      domain,
      credentialJwt: 'eyJhbGciOiJFZERTQSJ9.e30.c2ln',
      issuedAt: new Date(),
    }),
  ]);
  return { submissionId, evaluationId, certificateId, certificateNo, hashes };
}
