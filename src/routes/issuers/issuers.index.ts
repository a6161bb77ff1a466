import { createRouter } from '../../http/create-app';
import * as handlers from './issuers.handlers';
import * as routes from './issuers.routes';

/** Issuers' DID documents: where their `did:web` identifiers resolve. */
export const issuersRouter = createRouter().openapi(routes.getIssuerDidDocument, handlers.didDocument);
