import { ProblemError } from '../../../lib/problem';
import { verifyPresentedCredential } from '../../../services/credential-verifier';

/** The bytes of `{credential}` (text) or `{badge}` (base64), or a 422. */
export function presentedBytes(body: {
  credential?: string | undefined;
  badge?: string | undefined;
}): Uint8Array {
  if ((body.credential === undefined) === (body.badge === undefined))
    throw new ProblemError('validation-failed', 'Send exactly one of credential and badge.', {
      errors: [{ pointer: '#/credential', detail: 'Send exactly one of credential and badge.' }],
    });
  if (body.credential !== undefined) return new TextEncoder().encode(body.credential);
  const base64 = (body.badge ?? '').replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  try {
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  } catch {
    throw new ProblemError('validation-failed', 'badge is not base64.', {
      errors: [{ pointer: '#/badge', detail: 'Not base64.' }],
    });
  }
}

/** Shared by the v1 route and the public one the /verify page calls. */
export const verifyPresented = (
  env: Env,
  db: Parameters<typeof verifyPresentedCredential>[1],
  body: { credential?: string | undefined; badge?: string | undefined },
) => verifyPresentedCredential(env, db, presentedBytes(body));
