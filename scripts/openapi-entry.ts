// Bundled by scripts/openapi.mjs: the pieces needed to print the document in Node.
export { app } from '../src/app';
export { CANONICAL_SERVER_URL, endpointTable, openApiYaml, withEndpointTable } from '../src/lib/openapi';
