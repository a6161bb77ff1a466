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
import {
  achievementBadgeLines,
  type BadgeFace,
  type BadgeLine,
  badgeDocument,
  badgeLabel,
  certificateBadgeLines,
} from '../domain/certificates/badge';
import type { Script } from '../domain/pdf/scripts';
import { badgeImageKey } from './cache-keys';
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

/**
 * One line of text, centred on x = 200, as glyph outlines (SVG `<path>`s) at the positions HarfBuzz
 * gives. A line the layout's estimate let through that shapes wider than its `maxWidth` (it should
 * not happen: the estimate errs wide) is narrowed to fit rather than run into the ring.
 */
async function outlinedLine(line: BadgeLine): Promise<string> {
  const weight: Weight = line.bold ? 'bold' : 'regular';
  const runs = shapeLine(await harfBuzz(), line.text, weight);
  const glyphCount = runs.reduce((n, run) => n + run.glyphs.length, 0);
  const natural =
    runs.reduce((sum, run) => sum + (run.width * line.size) / run.upem, 0) +
    Math.max(0, glyphCount - 1) * line.letterSpacing;
  const squeeze = natural > line.maxWidth && natural > 0 ? line.maxWidth / natural : 1;
  let pen = 0;
  const paths: string[] = [];
  for (const run of runs) {
    const scale = line.size / run.upem;
    for (const glyph of run.glyphs) {
      const d = glyphPath(run.script, weight, glyph.id);
      if (d)
        paths.push(
          `<path transform="translate(${round(pen + glyph.dx * scale)} ${round(-glyph.dy * scale)}) scale(${round(scale * 1000) / 1000} ${-round(scale * 1000) / 1000})" d="${d}"/>`,
        );
      pen += glyph.advance * scale + line.letterSpacing;
    }
  }
  const width = natural * squeeze;
  const place = `translate(${round(200 - width / 2)} ${round(line.y)})${squeeze < 1 ? ` scale(${round(squeeze * 1000) / 1000} 1)` : ''}`;
  return `<g fill="${line.fill}" transform="${place}">${paths.join('')}</g>`;
}

/** The badge's SVG with its text drawn as outlines: what the PNG is the pixels of. */
async function outlinedBadge(label: string, lines: BadgeLine[]): Promise<string> {
  const drawn = await Promise.all(lines.map(outlinedLine));
  return badgeDocument(label, drawn.join('\n'));
}

/**
 * An achievement's badge as a 400 × 400 PNG: the one badge design ("VERIFIED WORK", the
 * achievement's name as large as it fits, its organisation), drawn in the pixels. No credential
 * is baked in, and no number or date: it stands for the achievement.
 */
export async function achievementBadgePng(face: {
  title: string;
  organisation: string;
}): Promise<Uint8Array<ArrayBuffer>> {
  return rasteriseSvg(await outlinedBadge(badgeLabel(face), achievementBadgeLines(face)), 400);
}

/**
 * A certificate's badge as a 400 × 400 PNG: the rasterised SVG badge (`badgeSvg`, the same lines
 * at the same places, its text as outlines), before the credential is baked in.
 */
export async function certificateBadgePng(face: BadgeFace): Promise<Uint8Array<ArrayBuffer>> {
  return rasteriseSvg(await outlinedBadge(badgeLabel(face), certificateBadgeLines(face)), 400);
}

/** How long a rendered certificate badge is kept (its key changes with what it shows). */
const BADGE_IMAGE_TTL = 30 * 86_400;

/**
 * The certificate's badge PNG (not baked), rendered once and kept in KV under a key made from what
 * it shows: a render takes tens of milliseconds of CPU, and badges are fetched again and again.
 */
export async function cachedCertificateBadgePng(
  env: Pick<Env, 'CACHE'>,
  face: BadgeFace,
): Promise<Uint8Array<ArrayBuffer>> {
  const key = await badgeImageKey(
    JSON.stringify([face.title, face.organisation, face.certificateNo, face.issuedAt.toISOString()]),
  );
  const hit = await env.CACHE.get(key, 'arrayBuffer');
  if (hit) return new Uint8Array(hit);
  const png = await certificateBadgePng(face);
  await env.CACHE.put(key, png, { expirationTtl: BADGE_IMAGE_TTL });
  return png;
}
