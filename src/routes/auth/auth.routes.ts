import { defineRoute } from '../../http/route';
import { sessionAuthBeforeGuardianConsent } from '../../http/route-auth';
import { RATE_LIMIT_HEADERS } from '../../lib/problem';
import { LoginSchema, SessionResponseSchema, SignupSchema } from './auth.schemas';

const setCookieHeader = {
  'Set-Cookie': {
    description: '`session=<token>; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=604800`',
    schema: { type: 'string' as const },
  },
};

export const signup = defineRoute({
  method: 'post',
  path: '/api/auth/signup',
  operationId: 'signUp',
  tags: ['Auth'],
  summary: 'Create a candidate or employer account and start a session',
  description:
    'The password must be at least 10 characters and not guessable: a strength estimator (zxcvbn, with ' +
    "common-password dictionaries, keyboard patterns, repeats, dates and the account's own email and name) " +
    'must rate it at least 3 of 4, or the answer is 422 saying why. Signups are limited to 10 per client ' +
    'network (an IPv4 address or an IPv6 /64) per hour; further ones get 429 with `Retry-After`.',
  security: [],
  request: { body: { required: true, content: { 'application/json': { schema: SignupSchema } } } },
  errors: [409, 429],
  responses: {
    201: {
      description: 'Account created; the session cookie is set.',
      headers: setCookieHeader,
      content: { 'application/json': { schema: SessionResponseSchema } },
    },
  },
});

export const login = defineRoute({
  method: 'post',
  path: '/api/auth/login',
  operationId: 'logIn',
  tags: ['Auth'],
  summary: 'Log in and start a session',
  description:
    'An unknown email and a wrong password get the same 401, in the same time, and count against the same ' +
    'limits. A login with exactly the `ADMIN_EMAIL`/`ADMIN_PASSWORD` secrets creates the admin account, or ' +
    're-enables it when it already is the admin; it never promotes an existing candidate or employer (409, ' +
    'nothing changed), and an `ADMIN_PASSWORD` that fails the password policy is refused (503). Brute force ' +
    'and password spraying are slowed, counted per client network (an IPv4 address or an IPv6 /64) before any ' +
    'password is checked: 20 failed logins from one network within 15 minutes, across all accounts, and 10 ' +
    'attempts without success for one email address from one network within 15 minutes (a successful login ' +
    'clears that count); past either, attempts get 429 with `Retry-After`.',
  security: [],
  request: { body: { required: true, content: { 'application/json': { schema: LoginSchema } } } },
  errors: [401, 409, 429, 503],
  responses: {
    200: {
      description: 'Logged in; the session cookie is set.',
      headers: setCookieHeader,
      content: { 'application/json': { schema: SessionResponseSchema } },
    },
  },
});

export const logout = defineRoute({
  method: 'post',
  path: '/api/auth/logout',
  operationId: 'logOut',
  tags: ['Auth'],
  summary: 'End the current session',
  description: 'The session is deleted at once: the token is refused from the next request on.',
  ...sessionAuthBeforeGuardianConsent(),
  responses: {
    204: { description: 'Logged out; the cookie is cleared.', headers: RATE_LIMIT_HEADERS },
  },
});
