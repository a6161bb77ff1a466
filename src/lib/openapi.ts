import { stringify } from 'yaml';
import type { AppOpenAPI } from './types';

/**
 * The server URL written into the committed `openapi.yaml` (the seed's `{base_url}` in
 * production). `GET /openapi.yaml` serves the same document with the deployment's own
 * `PUBLIC_BASE_URL` instead.
 */
export const CANONICAL_SERVER_URL = 'https://api.example.com';

export const SECURITY: Record<'session' | 'apiKey', Record<string, string[]>[]> = {
  session: [{ sessionCookie: [] }],
  apiKey: [{ serviceKey: [] }],
};

const DESCRIPTION = `Work-verification platform: AI pillars for partners (playbooks, integrity, rubrics),
candidate submissions with AI evaluation and blind employer rating, signed certificates with public
verification, a public leaderboard and AI/employer agreement rate, and data-subject rights under
India's DPDP Act 2023.

Every error is RFC 9457 \`application/problem+json\`. Paths under \`/api/v1/\` are frozen: breaking
changes ship under \`/api/v2/\` and \`/api/v1/\` stays for 12 months. Changes are listed at \`/changelog\`.`;

export function registerSecuritySchemes(app: AppOpenAPI) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'sessionCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description:
      'Session token set by `POST /api/auth/login` or `POST /api/auth/signup` (HttpOnly, Secure, SameSite=Strict).',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'serviceKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Service-Key',
    description: 'Partner API key issued by an admin at `POST /api/admin/api-keys`; scoped per pillar.',
  });
}

export function openApiDocument(app: AppOpenAPI, serverUrl: string) {
  return app.getOpenAPIDocument({
    openapi: '3.0.3',
    info: { title: 'Core API', version: 'v1.0.0', description: DESCRIPTION },
    servers: [{ url: serverUrl, description: 'Production' }],
    tags: [
      { name: 'Agreement', description: 'AI/employer agreement rate' },
      { name: 'Meta', description: 'The API describing itself' },
    ],
  });
}

export function openApiYaml(app: AppOpenAPI, serverUrl: string): string {
  return stringify(openApiDocument(app, serverUrl), { aliasDuplicateObjects: false, lineWidth: 0 });
}
