/**
 * The two public documents an achievement links besides itself: `criteria.id` (what earns it,
 * as an Open Badges `Criteria` document) and `image.id` (a PNG of its badge, with no credential
 * baked in, named after it). Drafts have neither (null).
 */
import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../db/client';
import { briefs, organisations } from '../db/schema';
import { namePng } from '../domain/certificates/badge';
import { OB_CONTEXT_V3, VC_CONTEXT_V2 } from '../domain/certificates/credential';
import { criteriaUrl } from '../domain/certificates/urls';
import { achievementImageKey } from './cache-keys';
import { briefCredentialFacts } from './credentials';
import { achievementBadgePng } from './renderers';
import { PLATFORM_NAME } from './status-lists';

async function publicBrief(db: Database, briefId: string) {
  const [row] = await db
    .select({ id: briefs.id, title: briefs.title, domain: briefs.domain, organisation: organisations.name })
    .from(briefs)
    .leftJoin(organisations, eq(organisations.id, briefs.organisationId))
    .where(and(eq(briefs.id, briefId), ne(briefs.state, 'draft')))
    .limit(1);
  return row ?? null;
}

/** `GET /ob/achievements/{briefId}/criteria`: the brief's criteria, in words, with its rubric. */
export async function criteriaDocument(db: Database, env: Pick<Env, 'PUBLIC_BASE_URL'>, briefId: string) {
  const brief = await publicBrief(db, briefId);
  if (!brief) return null;
  const issuer = brief.organisation ?? PLATFORM_NAME;
  const { rubric } = await briefCredentialFacts(db, briefId);
  const graded = rubric.map((c) => `- ${c.name}: ${c.description}`).join('\n');
  return {
    '@context': [VC_CONTEXT_V2, OB_CONTEXT_V3],
    id: criteriaUrl(env.PUBLIC_BASE_URL, brief.id),
    type: ['Criteria'],
    name: `Criteria of "${brief.title}"`,
    narrative:
      `Submit the work for every milestone of the brief "${brief.title}" (${brief.domain}); the certificate is ` +
      `issued when ${issuer} rates the final milestone as a pass.` +
      (graded ? `\n\nThe work is graded on:\n${graded}` : ''),
  };
}

/**
 * `GET /ob/achievements/{briefId}/image.png`: the achievement's badge (its name and organisation
 * drawn in the picture) as a PNG, also named in its `Title` and `Description` text chunks. A
 * render takes tens of milliseconds of CPU, so the PNG is kept in KV under a key made from what it
 * shows: a renamed brief or organisation gets a new image, and an unchanged one is rendered once.
 */
export async function achievementImage(
  db: Database,
  env: Pick<Env, 'CACHE'>,
  briefId: string,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const brief = await publicBrief(db, briefId);
  if (!brief) return null;
  const organisation = brief.organisation ?? PLATFORM_NAME;
  const text = {
    title: brief.title,
    description: `Badge of the achievement "${brief.title}" (${brief.domain}), set by ${organisation}.`,
  };
  const key = await achievementImageKey(JSON.stringify([text.title, text.description, organisation]));
  const hit = await env.CACHE.get(key, 'arrayBuffer');
  if (hit) return new Uint8Array(hit);
  const png = namePng(await achievementBadgePng({ title: brief.title, organisation }), text);
  await env.CACHE.put(key, png, { expirationTtl: ACHIEVEMENT_IMAGE_TTL });
  return png;
}

/** How long a rendered achievement image is kept (its key changes with what it shows). */
const ACHIEVEMENT_IMAGE_TTL = 30 * 86_400;
