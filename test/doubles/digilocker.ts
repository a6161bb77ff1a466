/**
 * A test double of DigiLocker's side of the issuer API: it writes Pull URI and Pull Doc requests
 * as the specification shows them (API Setu "DigiLocker Issuer APIs" 3.0.0), signs each body
 * with the shared key (`x-digilocker-hmac`: base64 HMAC-SHA256 of the raw body) and reads the
 * answers. It shares no code with the issuer (src/services/digilocker), so a mistake on either
 * side shows.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { app } from '../../src/app';

export const DIGILOCKER = {
  DIGILOCKER_ORG_ID: 'in.example.vp',
  DIGILOCKER_DOC_TYPE: 'VPCER',
  DIGILOCKER_API_KEY: 'the-shared-key-entered-on-the-partner-portal',
};

/** The Worker's env with the DigiLocker settings (they are empty in wrangler.toml). */
export const digilockerEnv = (overrides: Record<string, string> = {}) => ({
  ...env,
  ...DIGILOCKER,
  ...overrides,
});

const xmlEscape = (v: string) =>
  v.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

export async function sign(body: string, key = DIGILOCKER.DIGILOCKER_API_KEY): Promise<string> {
  const hmacKey = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(key),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(body)));
  return btoa(String.fromCharCode(...mac));
}

/** `2026-12-02T08:30:00+05:30`: the specification's sample format, in India's time. */
export function istTimestamp(at = new Date()): string {
  const ist = new Date(at.getTime() + 330 * 60_000);
  return `${ist.toISOString().slice(0, 19)}+05:30`;
}

let sequence = 0;
export const newTxn = () => `txn-${Date.now()}-${++sequence}`;

export type PullUriFields = {
  ts?: string;
  txn?: string;
  orgId?: string;
  format?: 'pdf' | 'xml' | 'both' | null;
  docType?: string;
  digiLockerId?: string;
  fullName?: string | null;
  dob?: string | null;
  udf1?: string;
};

export function pullUriXml(f: PullUriFields): string {
  const format = f.format === undefined ? 'both' : f.format;
  const field = (name: string, value: string | null | undefined) =>
    value === null || value === undefined ? '' : `\n    <${name}>${xmlEscape(value)}</${name}>`;
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<PullURIRequest ver="1.0" ts="${xmlEscape(f.ts ?? istTimestamp())}" txn="${xmlEscape(f.txn ?? newTxn())}" ` +
    `orgId="${xmlEscape(f.orgId ?? DIGILOCKER.DIGILOCKER_ORG_ID)}"${format ? ` format="${format}"` : ''}>\n` +
    '  <DocDetails>' +
    field('DocType', f.docType ?? DIGILOCKER.DIGILOCKER_DOC_TYPE) +
    field('DigiLockerId', f.digiLockerId ?? '123e4567-e89b-12d3-a456-426655440000') +
    field('FullName', f.fullName) +
    field('DOB', f.dob) +
    field('UDF1', f.udf1) +
    '\n  </DocDetails>\n</PullURIRequest>\n'
  );
}

export type PullDocFields = {
  ts?: string;
  txn?: string;
  orgId?: string;
  format?: 'pdf' | 'xml' | 'both' | null;
  uri: string;
  fullName?: string | null;
  dob?: string | null;
};

export function pullDocXml(f: PullDocFields): string {
  const format = f.format === undefined ? 'both' : f.format;
  const field = (name: string, value: string | null | undefined) =>
    value === null || value === undefined ? '' : `\n    <${name}>${xmlEscape(value)}</${name}>`;
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    `<PullDocRequest ver="1.0" ts="${xmlEscape(f.ts ?? istTimestamp())}" txn="${xmlEscape(f.txn ?? newTxn())}" ` +
    `orgId="${xmlEscape(f.orgId ?? DIGILOCKER.DIGILOCKER_ORG_ID)}"${format ? ` format="${format}"` : ''}>\n` +
    '  <DocDetails>' +
    field('URI', f.uri) +
    field('DigiLockerId', '123e4567-e89b-12d3-a456-426655440000') +
    field('FullName', f.fullName) +
    field('DOB', f.dob) +
    '\n  </DocDetails>\n</PullDocRequest>\n'
  );
}

export type Sent = { status: number; contentType: string; text: string; res: Response };

/**
 * POSTs `body` to the issuer as DigiLocker does: signed with the shared key unless `hmac` says
 * otherwise (null: no header). Goes through the app with the DigiLocker settings, the response
 * checked against the OpenAPI document (test/response-validation.setup.ts).
 */
export async function send(
  path: '/api/digilocker/pull-uri' | '/api/digilocker/pull-doc',
  body: string,
  options: { hmac?: string | null; envOverrides?: Record<string, string> } = {},
): Promise<Sent> {
  const hmac = options.hmac === undefined ? await sign(body) : options.hmac;
  const headers: Record<string, string> = { 'content-type': 'application/xml' };
  if (hmac !== null) headers['x-digilocker-hmac'] = hmac;
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`http://localhost:8787${path}`, { method: 'POST', headers, body }),
    digilockerEnv(options.envOverrides),
    ctx,
  );
  await waitOnExecutionContext(ctx);
  const text = await res.clone().text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, res };
}

// --- Reading the answers (DOMParser is not in workerd: a small reader for the answers' plain XML)

export type El = { name: string; attributes: Record<string, string>; children: El[]; text: string };

/** Reads the issuer's answers: elements, attributes, text (no DOCTYPE, no CDATA in them). */
export function readXml(xml: string): El {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: El[] = [{ name: '#document', attributes: {}, children: [], text: '' }];
  const decode = (s: string) =>
    s
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&apos;', "'")
      .replaceAll('&amp;', '&');
  const token = /<(\/?)([\w:.-]+)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>|([^<]+)/g;
  for (let m = token.exec(body); m; m = token.exec(body)) {
    const top = stack.at(-1)!;
    if (m[5] !== undefined) {
      top.text += decode(m[5]);
      continue;
    }
    if (m[1]) {
      if (top.name !== m[2]) throw new Error(`</${m[2]}> closes <${top.name}>`);
      top.text = top.text.trim();
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const a of (m[3] ?? '').matchAll(/([\w:.-]+)="([^"]*)"/g)) attributes[a[1]!] = decode(a[2]!);
    const el: El = { name: m[2]!, attributes, children: [], text: '' };
    top.children.push(el);
    if (!m[4]) stack.push(el);
  }
  if (stack.length !== 1) throw new Error('unclosed elements');
  const [root] = stack[0]!.children;
  if (!root) throw new Error('no root element');
  return root;
}

export const childOf = (el: El, name: string) => el.children.find((c) => c.name === name);

export const base64Bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
