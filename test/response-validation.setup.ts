import { app } from '../src/app';
import { assertDocumentedResponse } from './response-validation';

// Tests that call `app.fetch` directly (with a custom env) get the same response check as
// `call()` in test/helpers.ts. The Worker entry captured the unwrapped `fetch` when it was
// loaded, so requests through SELF are checked once, by `call()`.
// Files share the isolate (vitest.config.ts), so this runs once per file: wrap only once.
const CHECKED = Symbol.for('vpc.test.responses-checked');
const target = app as typeof app & { [CHECKED]?: true };
if (!target[CHECKED]) {
  target[CHECKED] = true;
  const fetch = app.fetch;
  app.fetch = async (request, env, executionCtx) => {
    const res = await fetch(request, env, executionCtx);
    await assertDocumentedResponse(request.method, request.url, res);
    return res;
  };
}
