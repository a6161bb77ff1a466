/**
 * The text of a PDF as this service writes it, read inside workerd (no poppler there): every
 * Flate content stream inflated, then the `/ActualText` of each marked-content span (UTF-16BE
 * hex: what copy-and-paste and pdftotext read for shaped text), in drawing order. The end-to-end
 * suite checks the same files with poppler's `pdftotext`.
 */
const latin1 = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(data)]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function utf16be(hex: string): string {
  const bytes = (hex.replace(/\s/g, '').match(/../g) ?? []).map((h) => Number.parseInt(h, 16));
  let start = bytes[0] === 0xfe && bytes[1] === 0xff ? 2 : 0;
  const units: number[] = [];
  for (; start + 1 < bytes.length; start += 2) units.push((bytes[start]! << 8) | bytes[start + 1]!);
  return String.fromCharCode(...units);
}

export async function pdfText(pdf: Uint8Array): Promise<string> {
  const raw = latin1(pdf);
  const out: string[] = [];
  for (const m of raw.matchAll(/<<([\s\S]*?)>>\s*stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const length = /\/Length (\d+)/.exec(m[1]!);
    let body: Uint8Array = pdf.slice(
      start,
      length ? start + Number(length[1]) : raw.indexOf('endstream', start),
    );
    if (/\/FlateDecode/.test(m[1]!)) {
      try {
        body = await inflate(body);
      } catch {
        continue; // a font program or image, not a content stream
      }
    }
    for (const t of latin1(body).matchAll(/\/ActualText\s*<([0-9A-Fa-f\s]*)>/g)) out.push(utf16be(t[1]!));
  }
  return out.join('\n');
}
