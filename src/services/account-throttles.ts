/**
 * Limits on what an account can try, counted by services before the work is done: login
 * attempts (per address and network), signups (per network) and email changes (per account).
 * The per-request limits of routes are middleware (src/middleware/rate-limit.ts).
 */
import { clientNetwork } from '../domain/network';
import { sha256Hex } from '../domain/secrets';
import { ProblemError } from '../lib/problem';

/** Login attempts allowed per email address and client network in a 15-minute sliding window. */
export const LOGIN_ATTEMPTS = { limit: 10, windowSeconds: 15 * 60 } as const;
/**
 * Failed logins allowed per client network (an IPv4 address, an IPv6 /64) across all
 * accounts in a 15-minute sliding window: what stops one address spraying a password over
 * many accounts, which the per-account limit alone does not see.
 */
export const LOGIN_FAILURES_PER_NETWORK = { limit: 20, windowSeconds: 15 * 60 } as const;
/** Signups allowed per client network in an hour. */
export const SIGNUPS_PER_NETWORK = { limit: 10, windowSeconds: 60 * 60 } as const;

function refused(policy: string, limit: number, windowSeconds: number, resetSeconds: number, detail: string) {
  return new ProblemError('quota-exceeded', detail, {
    headers: {
      'RateLimit-Policy': `"${policy}";q=${limit};w=${windowSeconds}`,
      RateLimit: `"${policy}";r=0;t=${resetSeconds}`,
      'Retry-After': String(resetSeconds),
    },
  });
}

/**
 * Brute-force and spraying limits for `POST /api/auth/login`, both counted before any password
 * is checked (so a refused guesser costs no PBKDF2 work) and both the same for known and
 * unknown addresses:
 * - per client network (`clientNetwork`: IPv6 counted per /64) across all accounts: 20
 *   attempts without success in 15 minutes. `begin` counts the attempt; `succeeded` takes it
 *   back, so only failures use the budget, and counting first keeps the limit exact under a
 *   parallel burst;
 * - per email address (hashed: no personal data names a Durable Object) and client network:
 *   10 attempts in 15 minutes since the last successful login, which clears the count.
 */
export async function loginAttempts(env: Env, email: string, ip: string | undefined) {
  const network = clientNetwork(ip);
  const account = env.RATE_LIMITER.getByName(
    `login:${await sha256Hex(email.trim().toLowerCase())}:${network}`,
  );
  const sprayed = env.RATE_LIMITER.getByName(`login-failures:${network}`);
  return {
    async begin(): Promise<void> {
      const perNetwork = await sprayed.hit(
        LOGIN_FAILURES_PER_NETWORK.limit,
        LOGIN_FAILURES_PER_NETWORK.windowSeconds,
      );
      if (!perNetwork.allowed) {
        const { limit, windowSeconds } = LOGIN_FAILURES_PER_NETWORK;
        throw refused(
          'login-network',
          limit,
          windowSeconds,
          perNetwork.resetSeconds,
          `Too many failed logins from this network: ${limit} in ${windowSeconds / 60} minutes, across all accounts.`,
        );
      }
      const decision = await account.hit(LOGIN_ATTEMPTS.limit, LOGIN_ATTEMPTS.windowSeconds);
      if (decision.allowed) return;
      const { limit, windowSeconds } = LOGIN_ATTEMPTS;
      throw refused(
        'login',
        limit,
        windowSeconds,
        decision.resetSeconds,
        `Too many login attempts for this account from this address: ${limit} in ${windowSeconds / 60} minutes.`,
      );
    },
    succeeded: () => Promise.all([account.reset(), sprayed.refund()]),
  };
}

/** Changes of an account's email address (attempts, taken or not) allowed per account in an hour. */
export const EMAIL_CHANGES_PER_ACCOUNT = { limit: 5, windowSeconds: 60 * 60 } as const;

/**
 * Email-change throttling: 5 attempts per account per hour, counted before the address is looked
 * up, whatever the outcome. A change to a taken address is a 409 and to a free one a 200, so
 * without this limit the correction route (60 requests a minute) told anyone with an account
 * which addresses were registered, far faster than the signup's 409 (10 an hour per network).
 */
export async function countEmailChange(env: Pick<Env, 'RATE_LIMITER'>, accountId: string): Promise<void> {
  const { limit, windowSeconds } = EMAIL_CHANGES_PER_ACCOUNT;
  const decision = await env.RATE_LIMITER.getByName(`email-change:${accountId}`).hit(limit, windowSeconds);
  if (!decision.allowed)
    throw refused(
      'email-change',
      limit,
      windowSeconds,
      decision.resetSeconds,
      `Too many changes of this account's email address: ${limit} per ${windowSeconds / 60} minutes.`,
    );
}

/**
 * Signup throttling: 10 per client network (IPv6 per /64) per hour, counted before anything
 * else is done, whatever the outcome (so it also slows probing which addresses have accounts).
 */
export async function countSignup(env: Env, ip: string | undefined): Promise<void> {
  const { limit, windowSeconds } = SIGNUPS_PER_NETWORK;
  const decision = await env.RATE_LIMITER.getByName(`signup:${clientNetwork(ip)}`).hit(limit, windowSeconds);
  if (!decision.allowed)
    throw refused(
      'signup',
      limit,
      windowSeconds,
      decision.resetSeconds,
      `Too many signups from this network: ${limit} per ${windowSeconds / 60} minutes.`,
    );
}

/**
 * OAuth dynamic client registrations (`POST /oauth/register`, RFC 7591, unauthenticated: each
 * stores a client in `OAUTH_KV`) allowed per client network (IPv6 per /64) per hour: a wallet
 * registers once per install, so 20 is far above any honest use. Counted before the library
 * sees the request, whatever its outcome.
 */
export const CLIENT_REGISTRATIONS_PER_NETWORK = { limit: 20, windowSeconds: 60 * 60 } as const;

export async function countClientRegistration(
  env: Pick<Env, 'RATE_LIMITER'>,
  ip: string | undefined,
): Promise<void> {
  const { limit, windowSeconds } = CLIENT_REGISTRATIONS_PER_NETWORK;
  const decision = await env.RATE_LIMITER.getByName(`oauth-register:${clientNetwork(ip)}`).hit(
    limit,
    windowSeconds,
  );
  if (!decision.allowed)
    throw refused(
      'oauth-register',
      limit,
      windowSeconds,
      decision.resetSeconds,
      `Too many OAuth client registrations from this network: ${limit} per ${windowSeconds / 60} minutes.`,
    );
}
