// Small helpers over the service's own API.

/**
 * Logs in as the first admin (the `.dev.vars` credentials) and issues an API key.
 * @param {string} url
 * @param {{ email: string; password: string }} admin
 * @param {string[]} scopes
 * @returns {Promise<string>} the key
 */
export async function issueApiKey(url, admin, scopes) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const res = await fetch(`${url}/api/admin/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: url },
    body: JSON.stringify({ name: `bench-${scopes.join('-')}`, scopes }),
  });
  if (res.status !== 201) throw new Error(`key issue failed: ${res.status} ${await res.text()}`);
  return /** @type {{ key: string }} */ (await res.json()).key;
}

/** @param {Response} res */
export function d1Header(res) {
  return {
    rowsRead: Number(res.headers.get('x-d1-rows-read') ?? Number.NaN),
    queries: Number(res.headers.get('x-d1-queries') ?? Number.NaN),
  };
}
