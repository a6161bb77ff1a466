/**
 * The PDF documents of an access export, drawn with pdf-lib: pure JavaScript (its only
 * dependencies are pako, tslib and two data packages), no Node built-ins, no file system, no
 * WebAssembly, so it runs unchanged in workerd. The 14 standard PDF fonts are used, which need
 * no font file but cover only Windows-1252: characters outside it (e.g. Devanagari) are drawn
 * as `?`; the JSON files of the export carry every value exactly.
 */
import { PageSizes, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

const MARGIN = 56;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.38, 0.42);
const ACCENT = rgb(0.11, 0.3, 0.55);

type Fonts = { regular: PDFFont; bold: PDFFont; drawable: Set<number> };

async function newDocument(title: string, now: Date): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setAuthor('Verification Platform');
  doc.setCreator('Verification Platform Core API');
  doc.setProducer('Verification Platform Core API (pdf-lib)');
  doc.setCreationDate(now);
  doc.setModificationDate(now);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const inBold = new Set(bold.getCharacterSet());
  const drawable = new Set(regular.getCharacterSet().filter((c) => inBold.has(c)));
  return { doc, fonts: { regular, bold, drawable } };
}

/** Plain objects keep the file readable by old viewers; content streams stay Flate-compressed. */
const save = (doc: PDFDocument) => doc.save({ useObjectStreams: false });

/** Replaces what the standard fonts cannot draw, so a name in any script never breaks the export. */
function drawableText(fonts: Fonts, text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    out += ch === '\t' ? ' ' : fonts.drawable.has(code) ? ch : '?';
  }
  return out;
}

function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    // A word longer than the line (a URL, an id) is broken by characters.
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

export type SummaryBlock =
  | { kind: 'title' | 'heading' | 'text' | 'muted'; text: string }
  | { kind: 'pair'; label: string; value: string }
  | { kind: 'gap' };

const STYLE = {
  title: { size: 20, bold: true, color: INK, before: 0 },
  heading: { size: 13, bold: true, color: ACCENT, before: 14 },
  text: { size: 10.5, bold: false, color: INK, before: 2 },
  muted: { size: 9, bold: false, color: MUTED, before: 2 },
} as const;

/** A flowing document of headings, paragraphs and label/value pairs, paginated on A4. */
export async function renderSummaryPdf(
  title: string,
  blocks: SummaryBlock[],
  now = new Date(),
): Promise<Uint8Array> {
  const { doc, fonts } = await newDocument(title, now);
  const [pageWidth, pageHeight] = PageSizes.A4;
  const width = pageWidth - 2 * MARGIN;
  let page: PDFPage = doc.addPage(PageSizes.A4);
  let y = pageHeight - MARGIN;

  const emit = (text: string, style: (typeof STYLE)[keyof typeof STYLE], indent = 0) => {
    const font = style.bold ? fonts.bold : fonts.regular;
    y -= style.before;
    for (const line of wrap(font, style.size, drawableText(fonts, text), width - indent)) {
      const height = style.size * 1.4;
      if (y - height < MARGIN) {
        page = doc.addPage(PageSizes.A4);
        y = pageHeight - MARGIN;
      }
      y -= height;
      page.drawText(line, { x: MARGIN + indent, y, size: style.size, font, color: style.color });
    }
  };

  for (const block of blocks) {
    if (block.kind === 'gap') y -= 8;
    else if (block.kind === 'pair') emit(`${block.label}: ${block.value}`, STYLE.text, 12);
    else emit(block.text, STYLE[block.kind]);
  }
  return save(doc);
}

export type CertificateDocument = {
  holderName: string;
  certificateNo: string;
  briefTitle: string;
  domain: string;
  employerName: string;
  status: 'active' | 'revoked' | 'pending_issuer';
  issuedAt: Date;
  revokedAt: Date | null;
  verifyUrl: string;
};

const day = (d: Date) => d.toISOString().slice(0, 10);

/** One certificate on a landscape A4 page, with its number and where to verify it. */
export async function renderCertificatePdf(cert: CertificateDocument, now = new Date()): Promise<Uint8Array> {
  const { doc, fonts } = await newDocument(`Certificate ${cert.certificateNo}`, now);
  const [height, width] = PageSizes.A4;
  const page = doc.addPage([width, height]);
  page.drawRectangle({
    x: 24,
    y: 24,
    width: width - 48,
    height: height - 48,
    borderColor: ACCENT,
    borderWidth: 2,
  });

  let y = height - 110;
  const centred = (text: string, size: number, bold = false, color = INK, gap = 10) => {
    const font = bold ? fonts.bold : fonts.regular;
    for (const line of wrap(font, size, drawableText(fonts, text), width - 2 * MARGIN - 48)) {
      y -= size;
      page.drawText(line, { x: (width - font.widthOfTextAtSize(line, size)) / 2, y, size, font, color });
      y -= size * 0.3;
    }
    y -= gap;
  };

  centred('Certificate of verified work', 26, true, ACCENT, 24);
  centred('This certifies that', 12, false, MUTED);
  centred(cert.holderName, 28, true, INK, 18);
  centred('completed the employer brief', 12, false, MUTED);
  centred(cert.briefTitle, 18, true, INK, 6);
  centred(`in ${cert.domain}, rated pass by ${cert.employerName}`, 12, false, INK, 24);
  centred(`Issued ${day(cert.issuedAt)}   |   Certificate number ${cert.certificateNo}`, 11, true);
  if (cert.status === 'revoked')
    centred(`REVOKED${cert.revokedAt ? ` on ${day(cert.revokedAt)}` : ''}`, 14, true, rgb(0.7, 0.1, 0.1));
  centred(`Verify at ${cert.verifyUrl}`, 10, false, MUTED, 4);
  centred('A copy from your data export; the signed credential is in certificates.json.', 9, false, MUTED);
  return save(doc);
}
