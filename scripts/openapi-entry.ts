// Bundled by scripts/openapi.mjs: the pieces needed to print the document in Node.
export { app } from '../src/app';
export { CANONICAL_SERVER_URL, openApiYaml } from '../src/lib/openapi';
