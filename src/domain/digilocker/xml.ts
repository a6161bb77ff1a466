/**
 * The little XML DigiLocker's issuer API speaks: elements, attributes and text, nothing else.
 * Written here rather than taken from a general parser because the safe subset is small and
 * the unsafe rest is what attacks use: a DOCTYPE (and with it every entity declaration, external
 * entity and "billion laughs") is refused outright, only the five predefined entities and
 * numeric character references are understood, and the input size, nesting depth and number of
 * elements are capped. Processing instructions other than the XML declaration, and CDATA, are
 * refused too: the specification's messages use neither.
 */

export type XmlElement = {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (concatenated, entity references resolved), not its children's. */
  text: string;
};

export type XmlLimits = { maxBytes: number; maxDepth: number; maxElements: number };

export const XML_LIMITS: XmlLimits = { maxBytes: 256 * 1024, maxDepth: 8, maxElements: 256 };

export class XmlError extends Error {}

const NAME = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?/;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Resolves `&lt;`…`&apos;`, `&#NN;` and `&#xHH;`; any other reference is an error (no entity expansion). */
function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&\s]{0,10});?/g, (match, ref: string) => {
    if (!match.endsWith(';')) throw new XmlError('An ampersand that starts no reference.');
    if (ref in PREDEFINED) return PREDEFINED[ref] as string;
    const numeric = /^#(x[0-9A-Fa-f]{1,6}|[0-9]{1,7})$/.exec(ref);
    if (!numeric?.[1]) throw new XmlError(`Unknown entity reference &${ref};`);
    const code = numeric[1].startsWith('x')
      ? Number.parseInt(numeric[1].slice(1), 16)
      : Number.parseInt(numeric[1], 10);
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      (code >= 0x10000 && code <= 0x10ffff);
    if (!allowed) throw new XmlError('A character reference to a character XML does not allow.');
    return String.fromCodePoint(code);
  });
}

/**
 * Parses one document into its root element. Throws `XmlError` on anything outside the subset
 * (see the file comment) or beyond `limits`.
 */
export function parseXml(input: string, limits: XmlLimits = XML_LIMITS): XmlElement {
  if (new TextEncoder().encode(input).length > limits.maxBytes)
    throw new XmlError(`The document is larger than ${limits.maxBytes} bytes.`);
  let pos = 0;
  let elements = 0;
  const fail = (message: string): never => {
    throw new XmlError(`${message} (at character ${pos}).`);
  };
  const skipSpace = () => {
    while (pos < input.length && /\s/.test(input[pos] as string)) pos++;
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (input.startsWith('<!--', pos)) {
        const end = input.indexOf('-->', pos + 4);
        if (end < 0) fail('An unterminated comment');
        pos = end + 3;
      } else if (input.startsWith('<?', pos)) {
        fail('A processing instruction');
      } else if (input.startsWith('<!', pos)) {
        fail('A DOCTYPE or declaration (not accepted)');
      } else return;
    }
  };
  const readName = (): string => {
    const m = NAME.exec(input.slice(pos, pos + 200));
    if (!m) return fail('A name was expected');
    pos += m[0].length;
    return m[0];
  };

  const readElement = (depth: number): XmlElement => {
    if (depth > limits.maxDepth) fail(`Elements nested deeper than ${limits.maxDepth}`);
    elements += 1;
    if (elements > limits.maxElements) fail(`More than ${limits.maxElements} elements`);
    if (input[pos] !== '<') fail('An element was expected');
    pos++;
    const name = readName();
    const attributes: Record<string, string> = Object.create(null);
    for (;;) {
      const before = pos;
      skipSpace();
      if (input.startsWith('/>', pos)) {
        pos += 2;
        return { name, attributes: { ...attributes }, children: [], text: '' };
      }
      if (input[pos] === '>') {
        pos++;
        break;
      }
      if (pos === before) fail('Whitespace was expected between attributes');
      const attribute = readName();
      skipSpace();
      if (input[pos] !== '=') fail('An attribute without a value');
      pos++;
      skipSpace();
      const quote = input[pos];
      if (quote !== '"' && quote !== "'") return fail('An unquoted attribute value');
      const end = input.indexOf(quote, pos + 1);
      if (end < 0) fail('An unterminated attribute value');
      const raw = input.slice(pos + 1, end);
      if (raw.includes('<')) fail('A "<" inside an attribute value');
      if (Object.hasOwn(attributes, attribute)) fail(`The attribute ${attribute} twice`);
      attributes[attribute] = decodeEntities(raw);
      pos = end + 1;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      if (pos >= input.length) fail(`The element ${name} is not closed`);
      if (input.startsWith('</', pos)) {
        pos += 2;
        const closing = readName();
        if (closing !== name) fail(`</${closing}> closes <${name}>`);
        skipSpace();
        if (input[pos] !== '>') fail('A malformed end tag');
        pos++;
        return { name, attributes: { ...attributes }, children, text };
      }
      if (input.startsWith('<!--', pos)) {
        const end = input.indexOf('-->', pos + 4);
        if (end < 0) fail('An unterminated comment');
        pos = end + 3;
        continue;
      }
      if (input.startsWith('<!', pos) || input.startsWith('<?', pos))
        fail('CDATA, a declaration or a processing instruction inside an element');
      if (input[pos] === '<') {
        children.push(readElement(depth + 1));
        continue;
      }
      const next = input.indexOf('<', pos);
      const end = next < 0 ? input.length : next;
      text += decodeEntities(input.slice(pos, end));
      pos = end;
    }
  };

  if (input.charCodeAt(0) === 0xfeff) pos = 1;
  // The XML declaration, if any, is the only processing instruction accepted.
  if (/^<\?xml\s/.test(input.slice(pos, pos + 6))) {
    const end = input.indexOf('?>', pos);
    if (end < 0) fail('An unterminated XML declaration');
    const declaration = input.slice(pos, end);
    const encoding = /encoding\s*=\s*["']([^"']+)["']/.exec(declaration)?.[1];
    if (encoding && !/^utf-?8$/i.test(encoding)) fail('Only UTF-8 is accepted');
    pos = end + 2;
  }
  skipMisc();
  const root = readElement(1);
  skipMisc();
  if (pos < input.length) fail('Content after the root element');
  return root;
}

/** The first child element named `name` (names compared exactly: XML is case-sensitive). */
export const child = (element: XmlElement, name: string): XmlElement | undefined =>
  element.children.find((c) => c.name === name);

const escapeText = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const escapeAttribute = (value: string) => escapeText(value).replaceAll('"', '&quot;');

/** A node to serialise: an element with attributes, and text or children. */
export type XmlNode = {
  name: string;
  attributes?: Record<string, string | undefined>;
  text?: string;
  children?: (XmlNode | null | undefined | false)[];
};

function serialiseNode(node: XmlNode, indent: string, out: string[]): void {
  const attributes = Object.entries(node.attributes ?? {})
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`)
    .join('');
  const children = (node.children ?? []).filter((c): c is XmlNode => Boolean(c));
  if (children.length === 0 && (node.text === undefined || node.text === '')) {
    out.push(`${indent}<${node.name}${attributes}/>`);
    return;
  }
  if (children.length === 0) {
    out.push(`${indent}<${node.name}${attributes}>${escapeText(node.text ?? '')}</${node.name}>`);
    return;
  }
  out.push(`${indent}<${node.name}${attributes}>`);
  for (const c of children) serialiseNode(c, `${indent}  `, out);
  out.push(`${indent}</${node.name}>`);
}

/** A complete document: the XML declaration the specification's samples carry, then `root`. */
export function serialiseXml(root: XmlNode): string {
  const out = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'];
  serialiseNode(root, '', out);
  return `${out.join('\n')}\n`;
}
