import { describe, expect, it } from 'vitest';
import { child, parseXml, serialiseXml, XmlError } from './xml';

describe('parseXml: the safe subset', () => {
  it('reads elements, attributes (either quote), text, predefined entities and character references', () => {
    const root = parseXml(
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><R a="1" b='x &amp; y'><C>T&lt;&#x41;&#66;</C><E/></R>`,
    );
    expect(root.name).toBe('R');
    expect(root.attributes).toEqual({ a: '1', b: 'x & y' });
    expect(child(root, 'C')?.text).toBe('T<AB');
    expect(child(root, 'E')).toMatchObject({ name: 'E', children: [], text: '' });
  });

  it('refuses a DOCTYPE, entity declarations and unknown entities (no expansion, no external entities)', () => {
    for (const input of [
      '<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><r>&b;</r>',
      '<!DOCTYPE r SYSTEM "file:///etc/passwd"><r/>',
      '<r>&xxe;</r>',
      '<r a="&ext;"/>',
      '<r>&#0;</r>',
      '<r>a & b</r>',
    ])
      expect(() => parseXml(input), input).toThrow(XmlError);
  });

  it('refuses CDATA, processing instructions, other encodings and malformed documents', () => {
    for (const input of [
      '<r><![CDATA[x]]></r>',
      '<?xml-stylesheet href="x"?><r/>',
      '<?xml version="1.0" encoding="UTF-16"?><r/>',
      '<r><a></r>',
      '<r a=1/>',
      '<r a="1" a="2"/>',
      '<r/><s/>',
      '<r>',
      '',
      'text',
    ])
      expect(() => parseXml(input), input).toThrow(XmlError);
  });

  it('caps size, depth and element count', () => {
    const limits = { maxBytes: 100, maxDepth: 3, maxElements: 5 };
    expect(() => parseXml(`<r>${'x'.repeat(200)}</r>`, limits)).toThrow(/larger than 100/);
    expect(() => parseXml('<a><b><c><d/></c></b></a>', limits)).toThrow(/deeper than 3/);
    expect(() => parseXml('<a><b/><b/><b/><b/><b/></a>', limits)).toThrow(/More than 5/);
    expect(parseXml('<a><b><c/></b></a>', limits).name).toBe('a');
  });

  it('serialises with escaping, and reads back what it wrote', () => {
    const xml = serialiseXml({
      name: 'R',
      attributes: { a: 'x"<&>', skipped: undefined },
      children: [{ name: 'C', text: '<&>' }, null, { name: 'E' }],
    });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>')).toBe(true);
    expect(xml).not.toContain('skipped');
    const back = parseXml(xml);
    expect(back.attributes.a).toBe('x"<&>');
    expect(child(back, 'C')?.text).toBe('<&>');
  });
});
