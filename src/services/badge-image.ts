/**
 * Badge images as PNG, made in the Worker (docs/decisions/0181-achievement-image-rasterised.md):
 *
 * - **Text** is shaped by HarfBuzz with the bundled Noto fonts, exactly as in the PDFs
 *   (`shapeLine`: Latin, Devanagari and Tamil, conjuncts and reordered vowel signs included), and
 *   each glyph is drawn as its outline (`@pdf-lib/fontkit` reads it from the font) at the position
 *   HarfBuzz gives. The SVG handed to the rasteriser therefore has no `<text>`: resvg's own text
 *   layout (rustybuzz in `@resvg/resvg-wasm` 2.6.2) mis-shapes Devanagari and drops Tamil vowel
 *   signs, and a Worker has no system fonts anyway.
 * - **Pixels**: resvg (`@resvg/resvg-wasm`), whose `.wasm` is imported as a compiled module
 *   (wrangler's `CompiledWasm` rule; Workers may not compile WebAssembly at run time) and
 *   instantiated once per isolate.
 */
import fontkit from '@pdf-lib/fontkit';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import resvgWasm from '@resvg/resvg-wasm/index_bg.wasm';
import { achievementBadgeLines, type BadgeLine, badgeDocument } from '../domain/certificates/badge';
import type { Script } from '../domain/pdf/scripts';
import { harfBuzz } from './pdf/harfbuzz';
import { FONT_FILES, shapeLine, type Weight } from './pdf/text';

let loading: Promise<void> | undefined;

/** resvg, instantiated on first use and kept for the isolate's life. */
function resvgReady(): Promise<void> {
  loading ??= initWasm(resvgWasm);
  return loading;
}

/** The PNG of an SVG document with no `<text>`, `width` pixels wide (the height keeps the ratio). */
export async function rasteriseSvg(svg: string, width: number): Promise<Uint8Array<ArrayBuffer>> {
  await resvgReady();
  const renderer = new Resvg(svg, { fitTo: { mode: 'width', value: width }, shapeRendering: 2 });
  try {
    const image = renderer.render();
    try {
      return new Uint8Array(image.asPng());
    } finally {
      image.free();
    }
  } finally {
    renderer.free();
  }
}

type Outlines = { font: ReturnType<typeof fontkit.create>; paths: Map<number, string> };

/** Glyph outlines (SVG path data in font units, y up), read once per font and glyph per isolate. */
const outlineFonts = new Map<string, Outlines>();

function glyphPath(script: Script, weight: Weight, id: number): string {
  const key = `${script}-${weight}`;
  let entry = outlineFonts.get(key);
  if (!entry) {
    entry = { font: fontkit.create(new Uint8Array(FONT_FILES[script][weight])), paths: new Map() };
    outlineFonts.set(key, entry);
  }
  let path = entry.paths.get(id);
  if (path === undefined) {
    path = entry.font.getGlyph(id).path.toSVG();
    entry.paths.set(id, path);
  }
  return path;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** One line of text, centred on x = 200, as glyph outlines (SVG `<path>`s). */
async function outlinedLine(line: BadgeLine): Promise<string> {
  const weight: Weight = line.bold ? 'bold' : 'regular';
  const runs = shapeLine(await harfBuzz(), line.text, weight);
  const glyphCount = runs.reduce((n, run) => n + run.glyphs.length, 0);
  const width =
    runs.reduce((sum, run) => sum + (run.width * line.size) / run.upem, 0) +
    Math.max(0, glyphCount - 1) * line.letterSpacing;
  let pen = 200 - width / 2;
  const paths: string[] = [];
  for (const run of runs) {
    const scale = line.size / run.upem;
    for (const glyph of run.glyphs) {
      const d = glyphPath(run.script, weight, glyph.id);
      if (d)
        paths.push(
          `<path transform="translate(${round(pen + glyph.dx * scale)} ${round(line.y - glyph.dy * scale)}) scale(${round(scale * 1000) / 1000} ${-round(scale * 1000) / 1000})" d="${d}"/>`,
        );
      pen += glyph.advance * scale + line.letterSpacing;
    }
  }
  return `<g fill="${line.fill}">${paths.join('')}</g>`;
}

/**
 * An achievement's badge as a 400 × 400 PNG: the badge frame, "VERIFIED WORK", the achievement's
 * name (up to two lines) and its organisation, drawn in the pixels. No credential is baked in.
 */
export async function achievementBadgePng(face: {
  title: string;
  organisation: string;
}): Promise<Uint8Array<ArrayBuffer>> {
  const lines = await Promise.all(achievementBadgeLines(face).map(outlinedLine));
  const svg = badgeDocument(`Verified work badge: ${face.title}, ${face.organisation}`, lines.join('\n'));
  return rasteriseSvg(svg, 400);
}
