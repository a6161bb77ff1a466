/**
 * The one reader of a baked badge (Open Badges 3.0 § 5.3 "Baked Badges"): the server's, and the
 * only one. The /verify page sends the file and shows what the server answered, so what is
 * verified and what is shown cannot be two different credentials.
 *
 * - **SVG** is read as namespaced XML: the candidate is a `credential` element in the
 *   `https://purl.imsglobal.org/ob/v3p0` namespace, whatever its prefix; its `verify` attribute
 *   (a VC-JWT) or its text and CDATA (a JSON credential). Comments, processing instructions and
 *   anything that is not an element never count; no entity is expanded (a DOCTYPE with an
 *   internal subset is refused; only the five predefined entities and character references are
 *   read); the document must be well formed (tags balanced, prefixes declared, one root `svg`).
 * - **PNG** is read chunk by chunk, every chunk's CRC checked, from `IHDR` to `IEND` with nothing
 *   after it; the candidate is a text chunk keyworded `openbadgecredential` (OB 3.0 uses `iTXt`,
 *   uncompressed).
 *
 * An image that carries more than one candidate (two elements, an element with both a `verify`
 * attribute and a body, two chunks) is refused: the specification allows one, and which one a
 * reader picks is exactly where two readers disagree. Plain TypeScript.
 */
import { crc32 } from '../certificates/badge';

export const OB3_NAMESPACE = 'https://purl.imsglobal.org/ob/v3p0';
export const PNG_KEYWORD = 'openbadgecredential';
/** Element nesting an SVG badge may use (a drawing needs a handful of levels). */
export const MAX_SVG_DEPTH = 256;

export type Baked = { credential: string } | { error: string };

// ---------------------------------------------------------------------------------------------
// PNG

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The one credential baked in a PNG, or why there is none to read. */
export function readBakedPng(png: Uint8Array): Baked {
  if (png.length < 8 || PNG_SIGNATURE.some((b, i) => png[i] !== b)) return { error: 'Not a PNG.' };
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const candidates: { type: string; data: Uint8Array }[] = [];
  let offset = 8;
  let index = 0;
  let ended = false;
  while (offset < png.length) {
    if (offset + 12 > png.length) return { error: `The PNG is damaged: chunk ${index} is truncated.` };
    const length = view.getUint32(offset);
    if (length > 0x7fffffff || offset + 12 + length > png.length)
      return { error: `The PNG is damaged: chunk ${index} is longer than the file.` };
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    const type = latin1.decode(typeAndData.subarray(0, 4));
    if (!/^[A-Za-z]{4}$/.test(type))
      return { error: `The PNG is damaged: chunk ${index} has no valid type.` };
    if (crc32(typeAndData) !== view.getUint32(offset + 8 + length))
      return { error: `The PNG is damaged: chunk ${index} (${type}) fails its CRC.` };
    if (index === 0 && type !== 'IHDR') return { error: 'The PNG is damaged: it does not start with IHDR.' };
    const data = typeAndData.subarray(4);
    if (type === 'iTXt' || type === 'tEXt' || type === 'zTXt') {
      const nul = data.indexOf(0);
      if (nul > 0 && latin1.decode(data.subarray(0, nul)) === PNG_KEYWORD) candidates.push({ type, data });
    }
    offset += 12 + length;
    index += 1;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  if (!ended) return { error: 'The PNG is damaged: it does not end with IEND.' };
  if (offset !== png.length) return { error: 'The PNG carries data after IEND: refused.' };
  if (candidates.length === 0)
    return { error: 'The PNG carries no Open Badges credential (no iTXt "openbadgecredential").' };
  if (candidates.length > 1)
    return {
      error: `The PNG carries ${candidates.length} "openbadgecredential" chunks: a baked badge carries one credential, and which one to read is ambiguous; refused.`,
    };
  const { type, data } = candidates[0]!;
  if (type !== 'iTXt')
    return {
      error: `The credential is in a ${type} chunk; Open Badges 3.0 bakes it in an uncompressed iTXt.`,
    };
  return iTxtText(data);
}

/** An iTXt chunk's text (PNG 1.2 § 11.3.4.5): keyword, flag 0, method, language, translated keyword, text. */
function iTxtText(data: Uint8Array): Baked {
  const nul = data.indexOf(0);
  if (nul + 2 >= data.length) return { error: 'The credential chunk is malformed.' };
  if (data[nul + 1] !== 0)
    return { error: 'The credential chunk is compressed; Open Badges 3.0 forbids compressing it.' };
  const languageEnd = data.indexOf(0, nul + 3);
  const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0) return { error: 'The credential chunk is malformed.' };
  try {
    return { credential: utf8.decode(data.subarray(translatedEnd + 1)) };
  } catch {
    return { error: 'The credential chunk is not UTF-8.' };
  }
}

// ---------------------------------------------------------------------------------------------
// SVG as namespaced XML

const NAME = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?$/;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

class XmlRefused extends Error {}

/** Character data with its references resolved: the five predefined entities and `&#…;` only. */
function xmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new XmlRefused('a bare "&" (not a reference)');
    if (name in PREDEFINED) return PREDEFINED[name]!;
    const code = /^#x([0-9a-f]{1,6})$/i.exec(name)?.[1] ?? /^#([0-9]{1,7})$/.exec(name)?.[1];
    if (code !== undefined) {
      const value = name.startsWith('#x') || name.startsWith('#X') ? Number.parseInt(code, 16) : Number(code);
      if (value > 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff))
        return String.fromCodePoint(value);
    }
    throw new XmlRefused(`the entity reference "&${name.slice(0, 20)};" (only the predefined ones are read)`);
  });
}

type Element = { qname: string; scope: Map<string, string>; candidate: Candidate | null };
type Candidate = { verify: string | null; text: string[] };

/** The attributes of a start tag's inside (after the name), in order. */
function attributesOf(source: string): [string, string][] {
  const out: [string, string][] = [];
  const pattern = /\s+([^\s=/>"']+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')|(\s*)$/y;
  let at = 0;
  while (at < source.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(source);
    if (!match || match[0] === '') throw new XmlRefused('a malformed start tag');
    if (match[1] === undefined) break;
    const name = match[1];
    if (!NAME.test(name)) throw new XmlRefused(`the attribute name "${name.slice(0, 40)}"`);
    if (out.some(([n]) => n === name)) throw new XmlRefused(`the attribute "${name}" twice`);
    out.push([name, xmlText(match[2] ?? match[3] ?? '')]);
    at = pattern.lastIndex;
  }
  return out;
}

/** The end of a start tag (the `>` outside quoted values), or -1. */
function tagEnd(text: string, from: number): number {
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '>') return i;
  }
  return -1;
}

function resolve(
  qname: string,
  scope: Map<string, string>,
  isAttribute: boolean,
): { ns: string; local: string } {
  const colon = qname.indexOf(':');
  if (colon < 0) return { ns: isAttribute ? '' : (scope.get('') ?? ''), local: qname };
  const prefix = qname.slice(0, colon);
  const ns = prefix === 'xml' ? XML_NAMESPACE : scope.get(prefix);
  if (ns === undefined) throw new XmlRefused(`the undeclared namespace prefix "${prefix.slice(0, 40)}"`);
  return { ns, local: qname.slice(colon + 1) };
}

/** The one credential baked in an SVG document, or why there is none to read. */
export function readBakedSvg(svg: string): Baked {
  try {
    return readSvg(svg);
  } catch (error) {
    if (error instanceof XmlRefused)
      return { error: `The SVG is not well-formed XML we read: ${error.message}.` };
    throw error;
  }
}

function readSvg(text: string): Baked {
  const stack: Element[] = [];
  const candidates: Candidate[] = [];
  let open: Candidate | null = null;
  let rootSeen = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chars = text.slice(i, lt < 0 ? text.length : lt);
    if (chars.length > 0) {
      if (stack.length === 0) {
        if (chars.trim() !== '') throw new XmlRefused('text outside the root element');
      } else {
        const value = xmlText(chars);
        if (open) open.text.push(value);
      }
    }
    if (lt < 0) break;
    i = lt;
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) throw new XmlRefused('an unterminated comment');
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      if (stack.length === 0) throw new XmlRefused('CDATA outside the root element');
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) throw new XmlRefused('an unterminated CDATA section');
      if (open) open.text.push(text.slice(i + 9, end));
      i = end + 3;
    } else if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) throw new XmlRefused('an unterminated processing instruction');
      i = end + 2;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      if (rootSeen) throw new XmlRefused('a DOCTYPE after the root element');
      const end = tagEnd(text, i + 9);
      if (end < 0) throw new XmlRefused('an unterminated DOCTYPE');
      if (text.slice(i, end).includes('['))
        throw new XmlRefused('a DOCTYPE with declarations (entities are not expanded)');
      i = end + 1;
    } else if (text.startsWith('<!', i)) {
      throw new XmlRefused('a markup declaration outside a DOCTYPE');
    } else if (text.startsWith('</', i)) {
      const end = text.indexOf('>', i + 2);
      if (end < 0) throw new XmlRefused('an unterminated end tag');
      const qname = text.slice(i + 2, end).trim();
      const top = stack.pop();
      if (!top || top.qname !== qname)
        throw new XmlRefused(`the end tag </${qname.slice(0, 40)}> does not match`);
      if (top.candidate) open = null;
      i = end + 1;
    } else {
      const end = tagEnd(text, i + 1);
      if (end < 0) throw new XmlRefused('an unterminated start tag');
      const selfClosing = text[end - 1] === '/';
      const inner = text.slice(i + 1, selfClosing ? end - 1 : end);
      const qname = /^[^\s/>]+/.exec(inner)?.[0] ?? '';
      if (!NAME.test(qname)) throw new XmlRefused(`the element name "${qname.slice(0, 40)}"`);
      if (stack.length === 0) {
        if (rootSeen) throw new XmlRefused('more than one root element');
        rootSeen = true;
      }
      if (stack.length >= MAX_SVG_DEPTH) throw new XmlRefused(`elements nested deeper than ${MAX_SVG_DEPTH}`);
      const attributes = attributesOf(inner.slice(qname.length));
      const parent = stack[stack.length - 1]?.scope ?? new Map<string, string>();
      let scope = parent;
      for (const [name, value] of attributes) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) {
          if (scope === parent) scope = new Map(parent);
          scope.set(name === 'xmlns' ? '' : name.slice(6), value);
        }
      }
      const { ns, local } = resolve(qname, scope, false);
      if (stack.length === 0 && local !== 'svg') throw new XmlRefused('the root element is not <svg>');
      let candidate: Candidate | null = null;
      const verifyValues: string[] = [];
      for (const [name, value] of attributes) {
        if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
        const attribute = resolve(name, scope, true);
        if (attribute.ns === '' && attribute.local === 'verify') verifyValues.push(value);
      }
      if (ns === OB3_NAMESPACE && local === 'credential') {
        candidate = { verify: verifyValues[0] ?? null, text: [] };
        candidates.push(candidate);
        if (!selfClosing) open = candidate;
      }
      if (!selfClosing) stack.push({ qname, scope, candidate });
      i = end + 1;
    }
  }
  if (!rootSeen) throw new XmlRefused('no root element');
  if (stack.length > 0)
    throw new XmlRefused(`<${stack[stack.length - 1]!.qname.slice(0, 40)}> is never closed`);

  const found = candidates.flatMap((c) => {
    const body = c.text.join('').trim();
    const verify = c.verify?.trim() ?? '';
    return [...(verify ? [verify] : []), ...(body ? [body] : [])];
  });
  if (found.length === 0)
    return {
      error: `The SVG carries no Open Badges credential (no <credential> element in the ${OB3_NAMESPACE} namespace).`,
    };
  if (found.length > 1)
    return {
      error: `The SVG carries ${found.length} credentials (credential elements, or a verify attribute and a body): a baked badge carries one, and which one to read is ambiguous; refused.`,
    };
  return { credential: found[0]! };
}
