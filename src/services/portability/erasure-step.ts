import { endAllGrants } from './grants';

/**
 * The erasure cascade's step for the person's grants to Open Badges API clients (src/services/dsr/
 * erasure.ts lists it after `sessions`): every grant and its tokens are deleted from `OAUTH_KV`;
 * the count is how many grants were ended. Idempotent: a redelivery finds none left. Their tokens
 * already stopped working when the erasure was requested (the account is disabled then).
 */
export const oauthGrantsErasureStep = {
  key: 'oauth_grants',
  run: async (ctx: {
    env: object;
    person: { userId: string };
    count: (key: string, n: number) => Promise<void>;
  }) => {
    const env = ctx.env as Env;
    const ended = env.OAUTH_KV ? await endAllGrants(env, ctx.person.userId) : 0;
    await ctx.count('oauth_grants', ended);
  },
};
