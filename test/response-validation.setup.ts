import { app } from '../src/app';
import { assertDocumentedResponse } from './response-validation';

// Tests that call `app.fetch` directly (with a custom env) get the same response check as
// `call()` in test/helpers.ts. The Worker entry captured the unwrapped `fetch` when it was
// loaded, so requests through SELF are checked once, by `call()`.
const fetch = app.fetch;
app.fetch = async (request, env, executionCtx) => {
  const res = await fetch(request, env, executionCtx);
  await assertDocumentedResponse(request.method, request.url, res);
  return res;
};
