// Bundled by scripts/lib/openapi-app.mjs: the pieces needed to print the document in Node.
export { app } from '../src/app';
export {
  CANONICAL_SERVER_URL,
  endpointTable,
  openApiDocument,
  openApiYaml,
  withEndpointTable,
} from '../src/http/openapi';
