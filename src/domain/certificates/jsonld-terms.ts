/**
 * JSON-LD terms for the members of our public documents that neither the VC 2.0 nor the Open
 * Badges 3.0.3 context defines, so every document we serve expands in a JSON-LD processor's safe
 * mode with the official contexts (test/jsonld.test.ts runs jsonld.js on each). Never a term
 * those contexts define: they are `@protected`, and redefining one is an error.
 */

/** The members of a public JWK (RFC 7517), as IANA's JOSE registry names them. */
export const JWK_CONTEXT = Object.fromEntries(
  ['kty', 'crv', 'x', 'y', 'use', 'alg'].map((name) => [
    name,
    `https://www.iana.org/assignments/jose#${name}`,
  ]),
) as Record<'kty' | 'crv' | 'x' | 'y' | 'use' | 'alg', string>;

/** Our own vocabulary (`{base}/ob/vocab#…`): extensions of the Profile and the Achievement. */
export const platformTerms = (base: string) => {
  const vocab = `${base.replace(/\/+$/, '')}/ob/vocab#`;
  return {
    verification: { '@id': `${vocab}verification`, '@type': '@json' },
    validForMonths: { '@id': `${vocab}validForMonths`, '@type': 'http://www.w3.org/2001/XMLSchema#integer' },
  } as const;
};
