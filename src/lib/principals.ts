/** Who is acting: the people and partner keys the auth middleware resolves, as services see them. */
import type { ApiKeyScope, Role } from '../db/schema';

/** The authenticated session user, set by the session middleware. */
export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Employers: the organisation they act for. */
  organisationId: string | null;
  /** ISO date; null for accounts from before it was asked (treated as adults). */
  dateOfBirth: string | null;
  sessionId: string;
  /** When this session's sign-in happened (renewals keep it): how recent `recentSignIn` routes ask. */
  signedInAt: Date;
};

/** The authenticated partner key, set by the API-key middleware. */
export type ApiKeyPrincipal = {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  /** The organisation the key acts for (webhooks); null for a key of the platform's own. */
  organisationId: string | null;
  /** A per-key limit below the default; null: the default. */
  ratelimitPerMinute: number | null;
  /** When the key stops working; null: never (absent where no key row was read). */
  expiresAt?: Date | null;
  /** Whether the secret presented is the one a roll replaced (working through its grace period). */
  replacedByRoll?: boolean;
  /** When the secret presented stops working: the roll's grace, or the key's expiry; null: never. */
  sentKeyExpiresAt?: Date | null;
};
