/**
 * Unicode text in pdf-lib documents, shaped with HarfBuzz. pdf-lib's own `drawText` places the
 * glyphs of a font's cmap one after another, which is wrong for Indic scripts: conjuncts,
 * reordered vowel signs and marks need OpenType shaping (GSUB and GPOS). So each line is split
 * into runs of one script (`itemize`), each run is shaped by HarfBuzz with its Noto font, and the
 * resulting glyph ids are drawn at the positions HarfBuzz gives (advances and mark offsets).
 *
 * The fonts are embedded through pdf-lib and `@pdf-lib/fontkit` as subsets: only the glyphs a
 * document draws go into the file. The bundled fonts are already cut down to their scripts
 * (`scripts/fonts.sh`). Glyph ids alone do not say which text they show (a conjunct is one glyph
 * for three characters, and a vowel sign drawn before its consonant is typed after it), so every
 * drawn line is wrapped in a `/Span` marked-content sequence with `/ActualText`: copy-and-paste,
 * search and text extraction (pdftotext) read the original string.
 */
import fontkit from '@pdf-lib/fontkit';
import {
  beginText,
  type Color,
  endMarkedContent,
  endText,
  PDFDict,
  type PDFDocument,
  type PDFFont,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
} from 'pdf-lib';
import latinBold from '../../assets/fonts/NotoSans-Bold.ttf';
import latinRegular from '../../assets/fonts/NotoSans-Regular.ttf';
import devanagariBold from '../../assets/fonts/NotoSansDevanagari-Bold.ttf';
import devanagariRegular from '../../assets/fonts/NotoSansDevanagari-Regular.ttf';
import tamilBold from '../../assets/fonts/NotoSansTamil-Bold.ttf';
import tamilRegular from '../../assets/fonts/NotoSansTamil-Regular.ttf';
import { itemize, type Script } from '../../domain/pdf/scripts';
import { type HarfBuzz, type HbFont, harfBuzz } from './harfbuzz';

export type Weight = 'regular' | 'bold';

export const FONT_FILES: Record<Script, Record<Weight, ArrayBuffer>> = {
  latin: { regular: latinRegular, bold: latinBold },
  devanagari: { regular: devanagariRegular, bold: devanagariBold },
  tamil: { regular: tamilRegular, bold: tamilBold },
};

/** HarfBuzz's language system per script (the fonts' OpenType script tags are picked from it). */
const SCRIPT_TAGS: Record<Script, string> = { latin: 'Latn', devanagari: 'Deva', tamil: 'Taml' };

type ShapingFont = { font: HbFont; upem: number };

/** HarfBuzz fonts are made once per isolate: the font bytes are copied into WebAssembly memory. */
const shapingFonts = new Map<string, ShapingFont>();

function shapingFont(hb: HarfBuzz, script: Script, weight: Weight): ShapingFont {
  const key = `${script}-${weight}`;
  let entry = shapingFonts.get(key);
  if (!entry) {
    const face = hb.createFace(hb.createBlob(FONT_FILES[script][weight]), 0);
    entry = { font: hb.createFont(face), upem: face.upem };
    shapingFonts.set(key, entry);
  }
  return entry;
}

export type Glyph = { id: number; dx: number; dy: number; advance: number };
export type ShapedRun = { script: Script; glyphs: Glyph[]; upem: number; width: number };

/**
 * One line of text as runs of one script, each shaped by HarfBuzz with its Noto font: glyph ids,
 * advances and offsets in font units (`upem` per em). Used by the PDFs and the badge images.
 */
export function shapeLine(hb: HarfBuzz, text: string, weight: Weight): ShapedRun[] {
  return itemize(text.normalize('NFC').replace(/[\t\r\n]/g, ' ')).map(({ script, text: runText }) => {
    const { font, upem } = shapingFont(hb, script, weight);
    const buffer = hb.createBuffer();
    try {
      buffer.addText(runText);
      buffer.guessSegmentProperties();
      buffer.setDirection('ltr');
      buffer.setScript(SCRIPT_TAGS[script]);
      hb.shape(font, buffer);
      const infos = buffer.getGlyphInfos();
      const positions = buffer.getGlyphPositions();
      let width = 0;
      const glyphs = infos.map((info, i) => {
        const p = positions[i]!;
        width += p.x_advance;
        return { id: info.codepoint, dx: p.x_offset, dy: p.y_offset, advance: p.x_advance };
      });
      return { script, glyphs, upem, width };
    } finally {
      buffer.destroy();
    }
  });
}

/** The parts of pdf-lib's subset embedder used to add glyphs by id (its `encodeText` does the same). */
type SubsetEmbedder = {
  font: { getGlyph(id: number): { id: number } };
  subset: { includeGlyph(glyph: { id: number }): number };
  glyphs: { id: number }[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
};

export type TextStyle = { size: number; weight?: Weight; color?: Color };

/**
 * The text layer of one document: `width` measures and `draw` draws a line of any of the
 * supported scripts. Characters outside Latin, Devanagari and Tamil show as the font's empty box
 * (their `/ActualText` is still right).
 */
export class ShapedText {
  private readonly embedded = new Map<string, Promise<PDFFont>>();

  private constructor(
    private readonly doc: PDFDocument,
    private readonly hb: HarfBuzz,
  ) {}

  static async for(doc: PDFDocument): Promise<ShapedText> {
    doc.registerFontkit(fontkit);
    return new ShapedText(doc, await harfBuzz());
  }

  private shape(text: string, weight: Weight): ShapedRun[] {
    return shapeLine(this.hb, text, weight);
  }

  /** The advance width of `text` at `size` points. */
  width(text: string, style: TextStyle): number {
    return this.shape(text, style.weight ?? 'regular').reduce(
      (sum, run) => sum + (run.width * style.size) / run.upem,
      0,
    );
  }

  private pdfFont(script: Script, weight: Weight): Promise<PDFFont> {
    const key = `${script}-${weight}`;
    let font = this.embedded.get(key);
    if (!font) {
      font = this.doc.embedFont(FONT_FILES[script][weight], { subset: true });
      this.embedded.set(key, font);
    }
    return font;
  }

  /** Draws one line with its left end of the baseline at (x, y). Returns its width. */
  async draw(page: PDFPage, text: string, x: number, y: number, style: TextStyle): Promise<number> {
    const weight = style.weight ?? 'regular';
    const runs = this.shape(text, weight);
    const actualText = PDFDict.withContext(this.doc.context);
    actualText.set(PDFName.of('ActualText'), PDFHexString.fromText(text));
    const ops: PDFOperator[] = [
      pushGraphicsState(),
      // pdf-lib has no helper for BDC with a property list; a PDFDict serialises as one.
      PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
        PDFName.of('Span'),
        actualText as unknown as PDFName,
      ]),
      beginText(),
    ];
    if (style.color) ops.push(setFillingColor(style.color));
    let pen = x;
    for (const run of runs) {
      const font = await this.pdfFont(run.script, weight);
      const embedder = (font as unknown as { embedder: SubsetEmbedder }).embedder;
      const key = page.node.newFontDictionary(font.name, font.ref);
      ops.push(setFontAndSize(key, style.size));
      const scale = style.size / run.upem;
      for (const glyph of run.glyphs) {
        const fkGlyph = embedder.font.getGlyph(glyph.id);
        const subsetId = embedder.subset.includeGlyph(fkGlyph);
        embedder.glyphs[subsetId - 1] = fkGlyph;
        embedder.glyphIdMap.set(fkGlyph.id, subsetId);
        const gx = pen + glyph.dx * scale;
        const gy = y + glyph.dy * scale;
        ops.push(
          setTextMatrix(1, 0, 0, 1, round(gx), round(gy)),
          showText(PDFHexString.of(subsetId.toString(16).padStart(4, '0'))),
        );
        pen += glyph.advance * scale;
      }
      embedder.glyphCache.invalidate();
    }
    ops.push(endText(), endMarkedContent(), popGraphicsState());
    page.pushOperators(...ops);
    return pen - x;
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;
