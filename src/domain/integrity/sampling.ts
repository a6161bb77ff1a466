/**
 * Which of a submission's fingerprints are stored, when there are more than a cap.
 *
 * The rows kept are those with the smallest hash values (a bottom-k sketch), not the first
 * ones or every n-th by position. Hash values are uniformly spread and independent of where a
 * passage sits, so the selection is the same for the same passage in every document: a
 * fingerprint kept for one stored submission is, if the same passage is in another
 * submission's sample range, kept there too, and every part of a long document is sampled
 * evenly. A copied passage longer than the guarantee threshold therefore still meets stored
 * fingerprints in proportion to its length, while a maximal submission stores a bounded
 * number of rows. The kept rows are returned in position order.
 */
export function sampleFingerprints<T extends { hash: number; position: number }>(
  prints: T[],
  cap: number,
): T[] {
  if (prints.length <= cap) return prints;
  const byHash = [...prints].sort((a, b) => a.hash - b.hash || a.position - b.position);
  return byHash.slice(0, Math.max(0, cap)).sort((a, b) => a.position - b.position);
}
