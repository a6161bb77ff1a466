import { createRouter } from '../../http/create-app';
import { CLR_SCOPES, OB_SCOPES, SCOPE_DESCRIPTIONS } from '../../services/portability/oauth';
import * as handlers from './ims.handlers';
import * as routes from './ims.routes';

/** The 1EdTech Open Badges API (OB 3.0 § "Open Badges API"): discovery, a holder's credentials and profile; and the CLR 2.0 API (discovery, the learner record). */
export const imsRouter = createRouter()
  .openapi(routes.getServiceDescription, handlers.discovery)
  .openapi(routes.getCredentials, handlers.credentials)
  .openapi(routes.getProfile, handlers.profile)
  .openapi(routes.getClrServiceDescription, handlers.clrDiscovery)
  .openapi(routes.getClrCredentials, handlers.clrCredentials);

imsRouter.openAPIRegistry.registerComponent('securitySchemes', 'OAuth2ACG', {
  type: 'oauth2',
  description:
    'OAuth 2.0 authorization code grant with PKCE (S256), for clients a holder authorises on the authorization ' +
    'page; register at `POST /oauth/register` (RFC 7591). The Open Badges API (`/ims/`) only. Access and refresh ' +
    'tokens are opaque strings, not JWTs, so RFC8725 (JWT best practices) concerns only the credentials served.',
  flows: {
    authorizationCode: {
      authorizationUrl: '/oauth/authorize',
      tokenUrl: '/oauth/token',
      refreshUrl: '/oauth/token',
      scopes: Object.fromEntries(
        [...Object.values(OB_SCOPES), ...Object.values(CLR_SCOPES)].map((s) => [
          s,
          SCOPE_DESCRIPTIONS[s] ?? s,
        ]),
      ),
    },
  },
});
