import type { AppRouteHandler } from '../../http/types';
import { ProblemError } from '../../lib/problem';
import {
  authorizationServerMetadata,
  createOffer,
  issuerMetadata,
  issueToWallet,
  makeNonce,
  offerDocument,
  offerUris,
  redeemPreAuthorizedCode,
} from '../../services/oid4vci';
import type * as routes from './oid4vci.routes';

const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
const NO_STORE = { 'Cache-Control': 'no-store' };
const OPEN = { 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' };

export const metadata: AppRouteHandler<typeof routes.getIssuerMetadata> = async (c) =>
  c.json(issuerMetadata(c.env.PUBLIC_BASE_URL), 200, OPEN);

export const asMetadata: AppRouteHandler<typeof routes.getAuthorizationServerMetadata> = async (c) =>
  c.json(authorizationServerMetadata(c.env.PUBLIC_BASE_URL), 200, OPEN);

export const offer: AppRouteHandler<typeof routes.getCredentialOffer> = async (c) => {
  const document = await offerDocument(c.var.db, c.env, c.req.valid('param').offerId);
  if (!document)
    throw new ProblemError('not-found', 'No live credential offer has this id (used or expired).');
  return c.json(document, 200, NO_STORE);
};

export const token: AppRouteHandler<typeof routes.postToken> = async (c) => {
  const form = c.req.valid('form');
  if (form.grant_type !== PRE_AUTHORIZED)
    return c.json(
      { error: 'unsupported_grant_type', error_description: `Only ${PRE_AUTHORIZED} is offered here.` },
      400,
      NO_STORE,
    );
  const code = form['pre-authorized_code'];
  if (!code)
    return c.json(
      { error: 'invalid_request', error_description: 'pre-authorized_code is missing.' },
      400,
      NO_STORE,
    );
  const result = await redeemPreAuthorizedCode(c.var.db, {
    preAuthorizedCode: code,
    ...(form.tx_code ? { txCode: form.tx_code } : {}),
  });
  if (!result.ok)
    return c.json({ error: result.error, error_description: result.description }, 400, NO_STORE);
  return c.json(
    { access_token: result.accessToken, token_type: 'Bearer' as const, expires_in: result.expiresIn },
    200,
    NO_STORE,
  );
};

export const nonce: AppRouteHandler<typeof routes.postNonce> = async (c) =>
  c.json({ c_nonce: await makeNonce(c.env) }, 200, NO_STORE);

export const credential: AppRouteHandler<typeof routes.postCredential> = async (c) => {
  const authorization = c.req.header('Authorization') ?? '';
  const match = /^(?:Bearer|DPoP) ([A-Za-z0-9_.~+/-]+=*)$/.exec(authorization);
  if (!match?.[1])
    return c.json({ error: 'invalid_token', error_description: 'A Bearer access token is required.' }, 401, {
      ...NO_STORE,
      'WWW-Authenticate': 'Bearer realm="oid4vci"',
    });
  const body = c.req.valid('json');
  const proofJwt = body.proofs?.jwt?.[0] ?? (body.proof?.proof_type === 'jwt' ? body.proof.jwt : undefined);
  const result = await issueToWallet(c.var.db, c.env, match[1], {
    credentialConfigurationId: body.credential_configuration_id,
    proofJwt,
  });
  if (!result.ok) {
    const error = { error: result.error, error_description: result.description };
    return result.status === 401
      ? c.json(error, 401, {
          ...NO_STORE,
          'WWW-Authenticate': 'Bearer realm="oid4vci", error="invalid_token"',
        })
      : c.json(error, 400, NO_STORE);
  }
  return c.json({ credentials: [{ credential: result.credential }] }, 200, NO_STORE);
};

export const createCredentialOffer: AppRouteHandler<typeof routes.postCredentialOffer> = async (c) => {
  const { certificateNo } = c.req.valid('param');
  const body = c.req.valid('json') ?? {};
  const created = await createOffer(c.var.db, c.env, c.var.user.id, certificateNo, {
    txCode: body.txCode ?? true,
  });
  if (!created.ok) {
    if (created.error === 'not-found')
      throw new ProblemError('not-found', 'You hold no certificate with this number.');
    throw new ProblemError('conflict', 'Only an active, signed certificate can be offered to a wallet.');
  }
  const uris = offerUris(c.env.PUBLIC_BASE_URL, created.offerId);
  return c.json(
    { ...uris, txCode: created.txCode, expiresAt: created.expiresAt.toISOString() },
    201,
    NO_STORE,
  );
};
