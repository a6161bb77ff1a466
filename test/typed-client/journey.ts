/**
 * A small integrator's journey written against types generated from openapi.yaml with
 * openapi-typescript (default options) and called through openapi-fetch. It is never run: it
 * must type-check (`npm run test:typed-client`), which proves what generated clients see:
 * - every operation has an operationId (`operations['getEvaluation']` exists);
 * - a 200 from `GET /api/evaluations/{id}` is not typed `| null`;
 * - request fields with a server default (`publish` of a new brief) are optional;
 * - fields that really can be null (a submission's `evaluation`) still are.
 */
import createClient from 'openapi-fetch';
import type { components, operations, paths } from './generated/openapi';

/** Compile-time assertions: `expectType<true>(...)` fails to compile when the condition is false. */
const expectType = <T extends true>(_value?: T) => undefined;
const expectFalse = <T extends false>(_value?: T) => undefined;
type Equals<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type IncludesNull<T> = null extends T ? true : false;

const api = createClient<paths>({
  baseUrl: 'http://localhost:8787',
  // Cookie-authenticated writes need an allowed Origin (see the sessionCookie security scheme).
  headers: { Origin: 'http://localhost:8787' },
  credentials: 'include',
});

export async function journey(): Promise<string | undefined> {
  const session = await api.POST('/api/auth/login', {
    body: { email: 'employer@demo.local', password: 'demo-employer-password' },
  });
  if (!session.data) return undefined;
  const role: 'candidate' | 'employer' | 'admin' = session.data.user.role;

  // `publish` has a server default (true): optional in the request type.
  const brief = await api.POST('/api/briefs', {
    body: {
      title: 'Build a REST API for a todo app',
      domain: 'web-development',
      description: 'The API must expose CRUD endpoints for todos.',
      deliverables: ['A repository'],
      successCriteria: ['Tests pass'],
      durationDays: 14,
    },
  });
  const milestoneId = brief.data?.playbook.milestones[0]?.id;

  const submissions = await api.GET('/api/briefs/{id}/submissions', {
    params: { path: { id: brief.data?.id ?? '' }, query: { limit: 10 } },
  });
  const first = submissions.data?.items[0];
  // Where a value can be null, it is typed so.
  expectType<IncludesNull<NonNullable<typeof first>['evaluation']>>();

  const evaluation = await api.GET('/api/evaluations/{id}', {
    params: { path: { id: first?.evaluationId ?? '' } },
  });
  if (evaluation.data) {
    // The 200 body is the Evaluation itself.
    expectType<Equals<typeof evaluation.data, components['schemas']['Evaluation']>>();
    const state: 'pending' | 'completed' | 'failed' = evaluation.data.state;
    void state;
  }

  const rated = await api.POST('/api/evaluations/{id}/employer-rating', {
    params: { path: { id: first?.evaluationId ?? '' } },
    body: { score: 4, verdict: 'pass' },
  });
  const certificateNo = rated.data?.certificate?.certificateNo;

  if (certificateNo) {
    const verification = await api.GET('/api/verify/{certificateNo}', {
      params: { path: { certificateNo } },
    });
    const jwksUrl: string | undefined = verification.data?.jwksUrl;
    void jwksUrl;
  }
  void role;
  void milestoneId;
  return certificateNo;
}

// Every operation is named by its operationId.
expectType<Equals<keyof operations extends string ? true : false, true>>();
type EvaluationOk = operations['getEvaluation']['responses'][200]['content']['application/json'];
// The 200 body of the evaluation read is never null.
expectFalse<IncludesNull<EvaluationOk>>();
type NewBrief = NonNullable<operations['createBrief']['requestBody']>['content']['application/json'];
// A defaulted request field is optional.
expectType<Equals<undefined extends NewBrief['publish'] ? true : false, true>>();
expectType<Equals<Record<never, never> extends Pick<NewBrief, 'publish'> ? true : false, true>>();
