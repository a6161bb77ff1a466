/**
 * The Open Badges API's error shape (OB 3.0 `Imsx_StatusInfo`), used on every `/ims/` path in
 * place of problem+json.
 */
export type ImsxCodeMinor =
  | 'forbidden'
  | 'internal_server_error'
  | 'invalid_data'
  | 'invalid_query_parameter'
  | 'not_allowed'
  | 'not_found'
  | 'server_busy'
  | 'unauthorizedrequest'
  | 'unknown';

export const imsxBody = (minor: ImsxCodeMinor, description: string) => ({
  imsx_codeMajor: 'failure' as const,
  imsx_severity: 'error' as const,
  imsx_description: description,
  imsx_codeMinor: {
    imsx_codeMinorField: [{ imsx_codeMinorFieldName: 'TargetEndSystem', imsx_codeMinorFieldValue: minor }],
  },
});

export function imsxResponse(
  status: number,
  minor: ImsxCodeMinor,
  description: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json(imsxBody(minor, description), {
    status,
    headers: { 'Cache-Control': 'no-store', ...headers },
  });
}

const MINOR_BY_STATUS: Record<number, ImsxCodeMinor> = {
  400: 'invalid_query_parameter',
  401: 'unauthorizedrequest',
  403: 'forbidden',
  404: 'not_found',
  405: 'not_allowed',
  413: 'invalid_data',
  415: 'invalid_data',
  422: 'invalid_data',
  429: 'server_busy',
  500: 'internal_server_error',
};

/**
 * An error the app's shared layers answered as problem+json (405, 404, 429, 500) on an `/ims/`
 * path, restated as `Imsx_StatusInfo` with the same status and headers; anything else unchanged.
 */
export async function asImsx(response: Response): Promise<Response> {
  if (!(response.headers.get('Content-Type') ?? '').startsWith('application/problem+json')) return response;
  const problem = (await response.json()) as { detail?: string; title?: string };
  const headers = new Headers(response.headers);
  headers.set('Content-Type', 'application/json');
  headers.delete('Content-Length');
  const minor = MINOR_BY_STATUS[response.status] ?? 'unknown';
  return new Response(JSON.stringify(imsxBody(minor, problem.detail ?? problem.title ?? 'Error.')), {
    status: response.status,
    headers,
  });
}
