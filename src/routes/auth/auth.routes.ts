import { RATE_LIMIT_HEADERS } from '../../lib/problem';
import { defineRoute } from '../../lib/route';
import { sessionAuth } from '../../lib/route-auth';
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
  security: [],
  request: { body: { required: true, content: { 'application/json': { schema: SignupSchema } } } },
  errors: [409],
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
    'An unknown email and a wrong password get the same 401, in the same time. A login with exactly the ' +
    '`ADMIN_EMAIL`/`ADMIN_PASSWORD` secrets creates or re-enables the admin account. Brute force is slowed: ' +
    'after 10 attempts without success for one email address from one IP address within 15 minutes, further ' +
    'attempts get 429 (`Retry-After`) without the password being checked, until the oldest is 15 minutes old; ' +
    'a successful login clears the count.',
  security: [],
  request: { body: { required: true, content: { 'application/json': { schema: LoginSchema } } } },
  errors: [401, 429],
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
  ...sessionAuth(),
  responses: {
    204: { description: 'Logged out; the cookie is cleared.', headers: RATE_LIMIT_HEADERS },
  },
});
