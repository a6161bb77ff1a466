/**
 * gzip for public JSON served from the isolate's memory (certificate verification, leaderboards;
 * the public agreement rate is a few hundred bytes and gains nothing): compressed once per cached
 * payload, sent as is to every client that accepts it.
 *
 * Why: a verification carries the signed credential (≈14 KB of JSON, ≈3.8 KB gzipped), a board of
 * 100 entries is ≈8 KB, and on a memory hit carrying those bytes is most of the request's cost
 * (docs/performance.md). In production the Workers runtime hands a Worker `Accept-Encoding: br,
 * gzip` whatever the visitor sent, keeping the visitor's own header in
 * `request.cf.clientAcceptEncoding` (the local runtime, Miniflare, does the same), and a body sent
 * with `encodeBody: 'manual'` is passed through instead of being compressed again on every request.
 * The visitor's header decides (`clientAcceptEncoding`): a client that does not ask for gzip (a
 * script, `curl` without `--compressed`) gets the JSON as is.
 */
import type { HeaderDoc } from './problem';

/** The response headers a gzip-capable route documents (OpenAPI). */
export const GZIP_RESPONSE_HEADERS: Record<string, HeaderDoc> = {
  Vary: { description: '`Accept-Encoding`: the encoding follows the request.', schema: { type: 'string' } },
  'Content-Encoding': {
    description:
      '`gzip` when the request accepts it (and the body is over 128 bytes and compresses); absent otherwise.',
    schema: { type: 'string', enum: ['gzip'] },
  },
};

/** What a gzip-capable route's description says. */
export const GZIP_DESCRIPTION =
  'Sent gzip-encoded (`Content-Encoding: gzip`, a quarter to two thirds of the bytes) when the request’s `Accept-Encoding` ' +
  'allows gzip, as browsers’ does; otherwise as plain JSON.';

/**
 * Below this many bytes, a gzip stream (its 18-byte frame and the block's own overhead) gains too
 * little to send. A payload is compressed once and kept, so the cost that matters is per response:
 * sending it as is lets the edge (or, locally, the runtime) compress it again on every response.
 */
export const MIN_GZIP_BYTES = 128;

/** A payload serialised once, whose gzip bytes are computed on first use and kept with it. */
export type CompressiblePayload = { json: string; etag: string; gzip?: Uint8Array | null };

let lastHeader: string | undefined;
let lastAnswer = false;

/**
 * Whether `Accept-Encoding` lets the response be gzip: `gzip` (or `x-gzip`), else `*`, listed with
 * a q-value above 0. No header means any coding is acceptable (RFC 9110 §12.5.3), but a client
 * that sends none is usually a script: it gets the identity body, as before.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  // Clients repeat one header value request after request; the last answer is kept.
  if (header === lastHeader) return lastAnswer;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';');
    const name = coding.trim().toLowerCase();
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    let q = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      const parsed = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value.trim()) ? Number(value.trim()) : 0;
      q = parsed;
    }
    if (name === '*') any = Math.max(any ?? 0, q);
    else gzip = Math.max(gzip ?? 0, q);
  }
  lastHeader = header;
  lastAnswer = (gzip ?? any ?? 0) > 0;
  return lastAnswer;
}

/** The `Accept-Encoding` the client sent: the runtime's copy of it when the runtime replaced it. */
export function clientAcceptEncoding(request: Request): string | undefined {
  const cf = request.cf as { clientAcceptEncoding?: unknown } | undefined;
  return typeof cf?.clientAcceptEncoding === 'string'
    ? cf.clientAcceptEncoding
    : (request.headers.get('Accept-Encoding') ?? undefined);
}

async function gzipText(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The body to send for `payload`: its gzip bytes when the client accepts gzip and the JSON is
 * large enough (computed by the runtime's zlib on first use, then kept on the payload object,
 * which the isolate's memory holds), else undefined for the JSON as is. Given the request rather
 * than its header, the visitor's encoding (`clientAcceptEncoding`, which materialises
 * `request.cf`) is read only for a payload large enough to compress.
 */
export function gzipBody(
  acceptEncoding: string | undefined | Request,
  payload: CompressiblePayload,
): Uint8Array | Promise<Uint8Array | undefined> | undefined {
  if (payload.json.length < MIN_GZIP_BYTES || payload.gzip === null) return undefined;
  const accepted = typeof acceptEncoding === 'object' ? clientAcceptEncoding(acceptEncoding) : acceptEncoding;
  if (!acceptsGzip(accepted)) return undefined;
  if (payload.gzip) return payload.gzip;
  return gzipText(payload.json).then((bytes) => {
    // Not smaller (a short payload of little repetition): sent as is from now on.
    payload.gzip = bytes.byteLength < payload.json.length ? bytes : null;
    return payload.gzip ?? undefined;
  });
}

/** Most documents held as strings whose gzip bytes are kept (`payloadOf`); emptied when full. */
const MAX_STRING_PAYLOADS = 1024;
const stringPayloads = new Map<string, CompressiblePayload>();

/**
 * The payload of a document the caller holds as a string (the `/ob/` documents come from their
 * cache as JSON text), so that it is gzipped once per text like the payload objects, not on every
 * response. The same text is the same payload; a changed document is another text.
 */
export function payloadOf(json: string): CompressiblePayload {
  let payload = stringPayloads.get(json);
  if (payload === undefined) {
    if (stringPayloads.size >= MAX_STRING_PAYLOADS) stringPayloads.clear();
    payload = { json, etag: '' };
    stringPayloads.set(json, payload);
  }
  return payload;
}
