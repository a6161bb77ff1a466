/**
 * DigiLocker's Pull URI and Pull Doc messages (API Setu, "DigiLocker Issuer APIs" 3.0.0, the
 * issuer specification v1.12): the requests read from XML, the answers written as XML, in the
 * published element and attribute names. Requests: `<PullURIRequest ver ts txn orgId format>`
 * with `<DocDetails>` (`DocType`, `DigiLockerId`, `UID`, `FullName`, `DOB`, `Photo`, `UDF1`…);
 * `<PullDocRequest ver ts txn orgId format>` with `<DocDetails>` (`URI`, `DigiLockerId`, …).
 * Answers: `<PullURIResponse>`/`<PullDocResponse>` with `<ResponseStatus Status ts txn>` (1 for
 * success, 0 for error, 9 for pending) and `<DocDetails>`. What the specification leaves open is
 * decided in docs/decisions/0360-digilocker-issuer.md.
 */
import { child, parseXml, serialiseXml, type XmlElement, XmlError, type XmlNode } from './xml';

export { XmlError };

export type DocumentFormat = 'pdf' | 'xml' | 'both';

type Envelope = { ver: string; ts: string; txn: string; orgId: string; format: DocumentFormat };

export type PullUriRequest = Envelope & {
  docType: string;
  digiLockerId: string | null;
  fullName: string | null;
  /** As sent (`DD-MM-YYYY`). */
  dob: string | null;
  /** `UDF1`, `UDF2`… as sent (the registered search fields). */
  udf: Record<string, string>;
};

export type PullDocRequest = Envelope & {
  uri: string;
  digiLockerId: string | null;
  fullName: string | null;
  dob: string | null;
};

export class DigiLockerRequestError extends Error {}

/** Longest value accepted in any field (names, numbers, ids); a `Photo` is accepted and ignored. */
const MAX_FIELD = 256;

const textOf = (e: XmlElement | undefined): string | null => {
  if (!e) return null;
  const value = e.text.trim();
  return value === '' ? null : value;
};

function envelope(root: XmlElement, expected: string): Envelope {
  if (root.name !== expected)
    throw new DigiLockerRequestError(`The root element must be <${expected}>, not <${root.name}>.`);
  const attribute = (name: string, required: boolean) => {
    const value = root.attributes[name]?.trim() ?? '';
    if (required && value === '') throw new DigiLockerRequestError(`The ${name} attribute is required.`);
    if (value.length > MAX_FIELD) throw new DigiLockerRequestError(`The ${name} attribute is too long.`);
    return value;
  };
  const format = attribute('format', false).toLowerCase() || 'pdf';
  if (format !== 'pdf' && format !== 'xml' && format !== 'both')
    throw new DigiLockerRequestError('The format attribute is pdf, xml or both.');
  return {
    ver: attribute('ver', true),
    ts: attribute('ts', true),
    txn: attribute('txn', true),
    orgId: attribute('orgId', true),
    format,
  };
}

function details(root: XmlElement): XmlElement {
  const docDetails = child(root, 'DocDetails');
  if (!docDetails) throw new DigiLockerRequestError('<DocDetails> is required.');
  for (const field of docDetails.children)
    if (field.name !== 'Photo' && field.text.length > MAX_FIELD)
      throw new DigiLockerRequestError(`<${field.name}> is too long.`);
  return docDetails;
}

function parse(body: string): XmlElement {
  try {
    return parseXml(body);
  } catch (error) {
    if (error instanceof XmlError)
      throw new DigiLockerRequestError(`Not a well-formed request: ${error.message}`);
    throw error;
  }
}

/** Reads a Pull URI request; throws `DigiLockerRequestError` when it is not one. */
export function parsePullUriRequest(body: string): PullUriRequest {
  const root = parse(body);
  const head = envelope(root, 'PullURIRequest');
  const d = details(root);
  const docType = textOf(child(d, 'DocType'));
  if (!docType) throw new DigiLockerRequestError('<DocType> is required.');
  const udf: Record<string, string> = {};
  for (const field of d.children) {
    const value = textOf(field);
    if (/^UDF\d+$/.test(field.name) && value !== null) udf[field.name] = value;
  }
  return {
    ...head,
    docType,
    digiLockerId: textOf(child(d, 'DigiLockerId')),
    fullName: textOf(child(d, 'FullName')),
    dob: textOf(child(d, 'DOB')),
    udf,
  };
}

/** Reads a Pull Doc request; throws `DigiLockerRequestError` when it is not one. */
export function parsePullDocRequest(body: string): PullDocRequest {
  const root = parse(body);
  const head = envelope(root, 'PullDocRequest');
  const d = details(root);
  const uri = textOf(child(d, 'URI'));
  if (!uri) throw new DigiLockerRequestError('<URI> is required.');
  return {
    ...head,
    uri,
    digiLockerId: textOf(child(d, 'DigiLockerId')),
    fullName: textOf(child(d, 'FullName')),
    dob: textOf(child(d, 'DOB')),
  };
}

/**
 * The `ts` and `txn` of a request that could not be authenticated or read in full, to echo in
 * the refusal; empty when the body is not even XML.
 */
export function echoOf(body: string): { ts: string; txn: string } {
  try {
    const root = parseXml(body);
    const clip = (v: string | undefined) => (v ?? '').trim().slice(0, MAX_FIELD);
    return { ts: clip(root.attributes.ts), txn: clip(root.attributes.txn) };
  } catch {
    return { ts: '', txn: '' };
  }
}

/** Names compared as people write them: case, accents' composition and runs of spaces ignored. */
export const normaliseName = (name: string) =>
  name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLocaleLowerCase('en');

export const namesMatch = (a: string, b: string) => normaliseName(a) === normaliseName(b);

/**
 * A date of birth as DigiLocker sends it (`DD-MM-YYYY`; `DD/MM/YYYY` is read the same) to the
 * ISO date recorded at signup (`YYYY-MM-DD`); null when it is not a real calendar date.
 */
export function isoDateOfBirth(value: string): string | null {
  const m = /^(\d{2})[-/](\d{2})[-/](\d{4})$/.exec(value.trim());
  if (!m) return null;
  const iso = `${m[3]}-${m[2]}-${m[1]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : null;
}

/** `YYYY-MM-DD` → `DD-MM-YYYY`, the specification's format. */
export const digiLockerDate = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

/** The request's timestamp in milliseconds since the epoch, or null when it is not one. */
export function timestampOf(ts: string): number | null {
  // ISO 8601 date-time with an offset, as the specification's samples (`2016-01-11T14:44:48+05:30`).
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(ts)) {
    const ms = Date.parse(ts.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    return Number.isNaN(ms) ? null : ms;
  }
  // Seconds (10 digits) or milliseconds (13 digits) since the epoch.
  if (/^\d{10}$/.test(ts)) return Number(ts) * 1000;
  if (/^\d{13}$/.test(ts)) return Number(ts);
  return null;
}

/** How far a request's `ts` may be from the issuer's clock. */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

export const timestampFresh = (ts: string, now: number) => {
  const at = timestampOf(ts);
  return at !== null && Math.abs(now - at) <= MAX_CLOCK_SKEW_MS;
};

/** The document's URI: `{orgId}-{docType}-{docId}`, the docId being the certificate number. */
export const documentUri = (orgId: string, docType: string, certificateNo: string) =>
  `${orgId}-${docType}-${certificateNo}`;

/** The certificate number a URI of ours names, or null when it is not one of ours. */
export function certificateNoOfUri(uri: string, orgId: string, docType: string): string | null {
  const prefix = `${orgId}-${docType}-`;
  if (!uri.startsWith(prefix)) return null;
  const rest = uri.slice(prefix.length);
  return rest === '' ? null : rest;
}

export type ResponseStatus = '1' | '0' | '9';

export type Document = { pdf?: string | undefined; xml?: string | undefined };

/** Which parts of the document a format asks for (no format: the PDF). */
export const wants = (format: DocumentFormat) => ({
  pdf: format === 'pdf' || format === 'both',
  xml: format === 'xml' || format === 'both',
});

/**
 * `<PullURIResponse>`. On success `DocDetails` echoes the request's fields and carries the URI
 * and the document (`DocContent`: the PDF, `DataContent`: the XML, both base64); on an error it
 * carries nothing, so a refusal says nothing about which field did not match.
 */
export function pullUriResponse(
  status: ResponseStatus,
  echo: { ts: string; txn: string },
  found?: { request: PullUriRequest; uri: string; document: Document },
): string {
  const r = found?.request;
  const text = (name: string, value: string | null | undefined): XmlNode | null =>
    value ? { name, text: value } : null;
  return serialiseXml({
    name: 'PullURIResponse',
    attributes: { 'xmlns:ns2': 'http://tempuri.org/' },
    children: [
      { name: 'ResponseStatus', attributes: { Status: status, ts: echo.ts, txn: echo.txn }, text: status },
      {
        name: 'DocDetails',
        children:
          found && r
            ? [
                text('DocType', r.docType),
                text('DigiLockerId', r.digiLockerId),
                text('FullName', r.fullName),
                text('DOB', r.dob),
                ...Object.entries(r.udf)
                  .sort(([a], [b]) => Number(a.slice(3)) - Number(b.slice(3)))
                  .map(([name, value]) => text(name, value)),
                text('URI', found.uri),
                text('DocContent', found.document.pdf),
                text('DataContent', found.document.xml),
              ]
            : [],
      },
    ],
  });
}

/** `<PullDocResponse>`: `DocContent` (PDF) and/or `DataContent` (XML) as the format asked, base64. */
export function pullDocResponse(
  status: ResponseStatus,
  echo: { ts: string; txn: string },
  document?: Document,
): string {
  return serialiseXml({
    name: 'PullDocResponse',
    attributes: { 'xmlns:ns2': 'http://tempuri.org/' },
    children: [
      { name: 'ResponseStatus', attributes: { Status: status, ts: echo.ts, txn: echo.txn }, text: status },
      {
        name: 'DocDetails',
        children: document
          ? [
              document.pdf ? { name: 'DocContent', text: document.pdf } : null,
              document.xml ? { name: 'DataContent', text: document.xml } : null,
            ]
          : [],
      },
    ],
  });
}
