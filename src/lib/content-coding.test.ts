import { describe, expect, it } from 'vitest';
import {
  acceptsGzip,
  type CompressiblePayload,
  clientAcceptEncoding,
  gzipBody,
  MIN_GZIP_BYTES,
  payloadOf,
} from './content-coding';

describe('acceptsGzip (RFC 9110 §12.5.3)', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br, zstd', true],
    ['br, gzip', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['gzip;q=0.5', true],
    ['gzip; q=1.0', true],
    ['*', true],
    ['br, *;q=0.1', true],
  ])('%j allows gzip', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['identity', false],
    ['br', false],
    ['deflate, br, zstd', false],
    ['gzip;q=0', false],
    ['gzip;q=0.000', false],
    ['gzip;q=0, *', false],
    ['*;q=0', false],
    ['gzip;q=2', false],
    ['gzip;q=abc', false],
    ['gzipped', false],
  ])('%j does not', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it('answers a repeated header the same, and a different one afresh', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('gzip')).toBe(true);
  });
});

describe('clientAcceptEncoding', () => {
  it("prefers the runtime's copy of the visitor's header to the header the runtime replaced", () => {
    const replaced = new Request('http://x/', {
      headers: { 'Accept-Encoding': 'br, gzip' },
      cf: { clientAcceptEncoding: '' },
    });
    expect(clientAcceptEncoding(replaced)).toBe('');
    expect(clientAcceptEncoding(new Request('http://x/', { headers: { 'Accept-Encoding': 'gzip' } }))).toBe(
      'gzip',
    );
    expect(clientAcceptEncoding(new Request('http://x/'))).toBeUndefined();
  });
});

describe('payloadOf', () => {
  it('is one payload per text, so a document held as a string is gzipped once', async () => {
    const text = JSON.stringify({ type: 'Profile', name: 'Demo Hiring Co '.repeat(20) });
    const payload = payloadOf(text);
    expect(payloadOf(text)).toBe(payload);
    expect(payloadOf(`${text} `)).not.toBe(payload);
    const bytes = await gzipBody('gzip', payload);
    expect(gzipBody('gzip', payloadOf(text))).toBe(bytes);
  });
});

describe('gzipBody', () => {
  const big = (): CompressiblePayload => ({
    json: JSON.stringify({ text: 'certificate '.repeat(400) }),
    etag: 'W/"1"',
  });

  it('compresses once and keeps the bytes on the payload', async () => {
    const payload = big();
    const first = await gzipBody('gzip', payload);
    expect(first).toBeInstanceOf(Uint8Array);
    expect(payload.gzip).toBe(first);
    expect(gzipBody('gzip', payload)).toBe(first); // synchronous from now on
    const back = await new Response(
      new Blob([first as Uint8Array]).stream().pipeThrough(new DecompressionStream('gzip')),
    ).text();
    expect(back).toBe(payload.json);
    expect((first as Uint8Array).byteLength).toBeLessThan(payload.json.length / 4);
  });

  it('leaves small payloads and clients that do not accept gzip with the JSON as is', () => {
    const payload = big();
    expect(gzipBody(undefined, payload)).toBeUndefined();
    expect(gzipBody('br', payload)).toBeUndefined();
    expect(gzipBody('gzip', { json: 'x'.repeat(MIN_GZIP_BYTES - 1), etag: 'W/"2"' })).toBeUndefined();
    expect(payload.gzip).toBeUndefined();
  });

  it('sends a payload that gzip does not shrink as is, and remembers so without compressing it again', async () => {
    // Random bytes in base64: nothing for gzip to find, and its frame costs more than it saves.
    const random = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(100))));
    const payload: CompressiblePayload = { json: JSON.stringify(random), etag: 'W/"4"' };
    expect(payload.json.length).toBeGreaterThanOrEqual(MIN_GZIP_BYTES);
    expect(await gzipBody('gzip', payload)).toBeUndefined();
    expect(payload.gzip).toBeNull();
    expect(gzipBody('gzip', payload)).toBeUndefined(); // synchronous: not compressed again
    const short = {
      json: JSON.stringify({ rate: 0.8, pairs: 10, window: 90, demo: false, extra: 'x'.repeat(100) }),
      etag: '',
    };
    expect(await gzipBody('gzip', short)).toBeInstanceOf(Uint8Array); // short but repetitive: smaller gzipped
  });

  it("given the request, reads the visitor's encoding (request.cf first) only for a payload large enough", () => {
    const asked: string[] = [];
    const request = (cfEncoding: string) => {
      const req = new Request('http://x/', { headers: { 'Accept-Encoding': 'br, gzip' } });
      Object.defineProperty(req, 'cf', {
        get: () => {
          asked.push(cfEncoding);
          return { clientAcceptEncoding: cfEncoding };
        },
      });
      return req;
    };
    expect(
      gzipBody(request('gzip'), { json: 'x'.repeat(MIN_GZIP_BYTES - 1), etag: 'W/"3"' }),
    ).toBeUndefined();
    expect(asked).toEqual([]); // too small to compress: request.cf never materialised
    const payload = big();
    expect(gzipBody(request(''), payload)).toBeUndefined(); // the runtime's header says gzip, the visitor did not
    expect(gzipBody(request('gzip, deflate'), payload)).toBeInstanceOf(Promise);
    expect(asked).toEqual(['', 'gzip, deflate']);
  });
});
