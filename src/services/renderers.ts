/**
 * The heavy renderers, loaded on first use (issue 54): PDFs (pdf-lib, fontkit, HarfBuzz and the
 * Noto fonts: src/services/dsr/pdf.ts) and badge PNGs (resvg: src/services/badge-image.ts).
 * Importing them statically would make every cold isolate evaluate them before its first answer
 * (fontkit alone decodes its Brotli dictionary and Unicode tables at load, ≈180 ms locally), though
 * almost no request needs them. Callers import these wrappers; only a request that renders pays.
 * scripts/bundle-budget.mjs fails when the Worker's entry reaches a renderer by a static import.
 */
import type * as BadgeImage from './badge-image';
import type * as Pdf from './dsr/pdf';

export type { CertificateDocument, SummaryBlock } from './dsr/pdf';

const pdf = () => import('./dsr/pdf');
const badgeImage = () => import('./badge-image');

/** src/services/dsr/pdf.ts `renderCertificatePdf`, loaded on first use. */
export async function renderCertificatePdf(
  ...args: Parameters<typeof Pdf.renderCertificatePdf>
): ReturnType<typeof Pdf.renderCertificatePdf> {
  return (await pdf()).renderCertificatePdf(...args);
}

/** src/services/dsr/pdf.ts `renderSummaryPdf`, loaded on first use. */
export async function renderSummaryPdf(
  ...args: Parameters<typeof Pdf.renderSummaryPdf>
): ReturnType<typeof Pdf.renderSummaryPdf> {
  return (await pdf()).renderSummaryPdf(...args);
}

/** src/services/badge-image.ts `achievementBadgePng`, loaded on first use. */
export async function achievementBadgePng(
  ...args: Parameters<typeof BadgeImage.achievementBadgePng>
): ReturnType<typeof BadgeImage.achievementBadgePng> {
  return (await badgeImage()).achievementBadgePng(...args);
}

/** src/services/badge-image.ts `rasteriseSvg`, loaded on first use. */
export async function rasteriseSvg(
  ...args: Parameters<typeof BadgeImage.rasteriseSvg>
): ReturnType<typeof BadgeImage.rasteriseSvg> {
  return (await badgeImage()).rasteriseSvg(...args);
}
