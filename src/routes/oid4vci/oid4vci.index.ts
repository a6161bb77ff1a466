import { createRouter } from '../../http/create-app';
import * as handlers from './oid4vci.handlers';
import * as routes from './oid4vci.routes';

/** Wallet delivery: OpenID for Verifiable Credential Issuance 1.0, pre-authorized code flow. */
export const oid4vciRouter = createRouter()
  .openapi(routes.postCredentialOffer, handlers.createCredentialOffer)
  .openapi(routes.getIssuerMetadata, handlers.metadata)
  .openapi(routes.getAuthorizationServerMetadata, handlers.asMetadata)
  .openapi(routes.getCredentialOffer, handlers.offer)
  .openapi(routes.postToken, handlers.token)
  .openapi(routes.postNonce, handlers.nonce)
  .openapi(routes.postCredential, handlers.credential);
