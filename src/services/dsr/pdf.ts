/**
 * The PDF documents of the platform: the data summary and certificate copies of an access export,
 * and the printable certificate a holder downloads (`GET /api/me/certificates/{no}/pdf`). Drawn
 * with pdf-lib; text goes through `ShapedText` (src/services/pdf/text.ts): Noto fonts embedded as
 * subsets and OpenType shaping by HarfBuzz, so names in Devanagari and Tamil come out right
 * (conjuncts, vowel signs) and stay searchable and extractable.
 */
import { PageSizes, PDFDocument, type PDFPage, rgb } from 'pdf-lib';
import { encodeQr, qrSvgPath } from '../../domain/pages/qr';
import { ShapedText, type TextStyle } from '../pdf/text';
import { PLATFORM_NAME } from '../status-lists';

const MARGIN = 56;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.38, 0.42);
const ACCENT = rgb(0.11, 0.3, 0.55);

async function newDocument(title: string, now: Date): Promise<{ doc: PDFDocument; text: ShapedText }> {
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setAuthor('Verification Platform');
  doc.setCreator('Verification Platform Core API');
  doc.setProducer('Verification Platform Core API (pdf-lib, HarfBuzz)');
  doc.setCreationDate(now);
  doc.setModificationDate(now);
  doc.setLanguage('en');
  return { doc, text: await ShapedText.for(doc) };
}

/** Plain objects keep the file readable by old viewers; content streams stay Flate-compressed. */
const save = (doc: PDFDocument) => doc.save({ useObjectStreams: false });

/** Breaks text into lines no wider than `width`; a word longer than a line is broken by characters. */
function wrap(measure: (text: string) => number, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (measure(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (measure(rest) > width) {
      const chars = [...rest];
      let cut = chars.length - 1;
      while (cut > 1 && measure(chars.slice(0, cut).join('')) > width) cut -= 1;
      lines.push(chars.slice(0, cut).join(''));
      rest = chars.slice(cut).join('');
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
  title: { size: 20, weight: 'bold', color: INK, before: 0 },
  heading: { size: 13, weight: 'bold', color: ACCENT, before: 14 },
  text: { size: 10.5, weight: 'regular', color: INK, before: 2 },
  muted: { size: 9, weight: 'regular', color: MUTED, before: 2 },
} as const;

/** A flowing document of headings, paragraphs and label/value pairs, paginated on A4. */
export async function renderSummaryPdf(
  title: string,
  blocks: SummaryBlock[],
  now = new Date(),
): Promise<Uint8Array> {
  const { doc, text } = await newDocument(title, now);
  const [pageWidth, pageHeight] = PageSizes.A4;
  const width = pageWidth - 2 * MARGIN;
  let page: PDFPage = doc.addPage(PageSizes.A4);
  let y = pageHeight - MARGIN;

  const emit = async (content: string, style: (typeof STYLE)[keyof typeof STYLE], indent = 0) => {
    y -= style.before;
    for (const line of wrap((t) => text.width(t, style), content, width - indent)) {
      const height = style.size * 1.5;
      if (y - height < MARGIN) {
        page = doc.addPage(PageSizes.A4);
        y = pageHeight - MARGIN;
      }
      y -= height;
      await text.draw(page, line, MARGIN + indent, y, style);
    }
  };

  for (const block of blocks) {
    if (block.kind === 'gap') y -= 8;
    else if (block.kind === 'pair') await emit(`${block.label}: ${block.value}`, STYLE.text, 12);
    else await emit(block.text, STYLE[block.kind]);
  }
  return save(doc);
}

export type CertificateDocument = {
  holderName: string;
  certificateNo: string;
  briefTitle: string;
  domain: string;
  /** The organisation, by the name signed into the credential. */
  employerName: string;
  status: 'active' | 'revoked' | 'pending_issuer';
  /** What a verifier is told now (an issuer's suspension, an expiry); the stored `status` when absent. */
  publicStatus?: 'active' | 'revoked' | 'pending_issuer' | 'suspended' | 'expired';
  validUntil?: Date | null;
  /** The platform rejected the issuing organisation: a waiting certificate will not become valid by itself. */
  issuerRejected?: boolean;
  /** The platform verified the issuing organisation (its domain or by review): said under its name. */
  issuerVerified?: boolean;
  /** The rubric's criteria the work was assessed on, by name (the credential's `criteria`). */
  criteria?: string[];
  issuedAt: Date;
  revokedAt: Date | null;
  /** The public verification page, `{base}/verify/{no}`: printed and encoded in the QR code. */
  verifyUrl: string;
  /** A line at the foot of the page (e.g. where the export keeps the signed credential). */
  note?: string;
};

const DAY = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * One certificate on a landscape A4 page: the holder's name, the achievement, the organisation,
 * the date and number, and a QR code of the verification page.
 */
export async function renderCertificatePdf(cert: CertificateDocument, now = new Date()): Promise<Uint8Array> {
  const { doc, text } = await newDocument(`Certificate ${cert.certificateNo}`, now);
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
  page.drawRectangle({
    x: 30,
    y: 30,
    width: width - 60,
    height: height - 60,
    borderColor: ACCENT,
    borderWidth: 0.5,
  });

  let y = height - 100;
  const centred = async (content: string, style: TextStyle, gap = 10) => {
    for (const line of wrap((t) => text.width(t, style), content, width - 2 * MARGIN - 48)) {
      y -= style.size;
      await text.draw(page, line, (width - text.width(line, style)) / 2, y, style);
      y -= style.size * 0.45;
    }
    y -= gap;
  };

  await centred('Certificate of verified work', { size: 26, weight: 'bold', color: ACCENT }, 24);
  await centred('This certifies that', { size: 12, color: MUTED });
  await centred(cert.holderName, { size: 28, weight: 'bold', color: INK }, 18);
  await centred('completed the employer brief', { size: 12, color: MUTED });
  await centred(cert.briefTitle, { size: 18, weight: 'bold', color: INK }, 6);
  await centred(`in ${cert.domain}, rated pass by ${cert.employerName}`, { size: 12, color: INK }, 2);
  if (cert.issuerVerified)
    await centred(
      `${cert.employerName} is an organisation verified by ${PLATFORM_NAME}.`,
      { size: 10, color: MUTED },
      2,
    );
  await centred(
    'Criteria: the work of every milestone of the brief, assessed against its rubric and rated a pass by the organisation.',
    { size: 10, color: MUTED },
    cert.criteria?.length ? 2 : 16,
  );
  if (cert.criteria?.length)
    await centred(`Assessed on: ${cert.criteria.join(' · ')}`, { size: 10, color: INK }, 16);
  await centred(`Issued ${DAY.format(cert.issuedAt)}`, { size: 11, weight: 'bold', color: INK }, 0);
  await centred(`Certificate number ${cert.certificateNo}`, { size: 11, weight: 'bold', color: INK }, 8);
  if (cert.status === 'revoked')
    await centred(`REVOKED${cert.revokedAt ? ` on ${DAY.format(cert.revokedAt)}` : ''}`, {
      size: 14,
      weight: 'bold',
      color: rgb(0.7, 0.1, 0.1),
    });
  if (cert.status === 'pending_issuer' && cert.issuerRejected)
    await centred('NOT VALID: the platform did not recognise the issuing organisation', {
      size: 12,
      weight: 'bold',
      color: rgb(0.7, 0.1, 0.1),
    });
  else if (cert.status === 'pending_issuer')
    await centred('NOT YET VALID: the issuing organisation is not verified yet', {
      size: 12,
      weight: 'bold',
      color: rgb(0.55, 0.35, 0),
    });
  if (cert.status === 'active' && cert.publicStatus === 'suspended')
    await centred('NOT VALID NOW: the issuing organisation is suspended by the platform', {
      size: 12,
      weight: 'bold',
      color: rgb(0.7, 0.1, 0.1),
    });
  if (cert.status === 'active' && cert.publicStatus === 'expired')
    await centred(`EXPIRED${cert.validUntil ? ` on ${DAY.format(cert.validUntil)}` : ''}`, {
      size: 14,
      weight: 'bold',
      color: rgb(0.7, 0.1, 0.1),
    });

  // The QR code of the verification page, bottom right, with the link beside it.
  const code = encodeQr(cert.verifyUrl);
  const side = 96;
  if (code) {
    const scale = side / (code.size + 8);
    const qx = width - 48 - side;
    const qy = 48 + side;
    page.drawRectangle({ x: qx, y: 48, width: side, height: side, color: rgb(1, 1, 1) });
    page.drawSvgPath(qrSvgPath(code), { x: qx, y: qy, scale, color: rgb(0, 0, 0) });
  }
  const linkStyle = { size: 9, color: MUTED };
  await text.draw(page, 'Check this certificate at', 56, 48 + 40, linkStyle);
  await text.draw(page, cert.verifyUrl, 56, 48 + 26, { size: 10, color: ACCENT });
  if (cert.note) await text.draw(page, cert.note, 56, 48 + 8, { size: 8, color: MUTED });
  return save(doc);
}
