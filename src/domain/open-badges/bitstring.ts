/**
 * Reading a W3C Bitstring Status List (v1.0 § "Validate Algorithm"): `encodedList` is multibase
 * base64url (`u`) of the GZIP-compressed bitstring; index 0 is the left-most bit of the first
 * byte. Plain TypeScript (fflate).
 */
import { gunzipSync } from 'fflate';
import { base64url } from 'jose';

/** The specification's minimum list length, for herd privacy. */
export const MINIMUM_ENTRIES = 131_072;
/** A gzip bomb guard: no issuer needs more than 16 Mbit per list. */
const MAX_BITS = 16 * 1024 * 1024;

/** The status value at `index` (`statusSize` bits, usually 1), or why it cannot be read. */
export function readStatus(
  encodedList: unknown,
  index: number,
  statusSize = 1,
): { ok: true; value: number } | { ok: false; detail: string } {
  if (typeof encodedList !== 'string' || !encodedList.startsWith('u'))
    return { ok: false, detail: 'encodedList is not multibase base64url ("u…").' };
  if (!Number.isSafeInteger(index) || index < 0)
    return { ok: false, detail: 'statusListIndex is not a natural number.' };
  if (!Number.isInteger(statusSize) || statusSize < 1 || statusSize > 8)
    return { ok: false, detail: 'statusSize must be 1 to 8.' };
  let bits: Uint8Array;
  try {
    const compressed = base64url.decode(encodedList.slice(1));
    // fflate reads the size from the gzip trailer; refuse what would inflate past the cap.
    const view = new DataView(compressed.buffer, compressed.byteOffset, compressed.byteLength);
    if (compressed.length < 18 || view.getUint32(compressed.length - 4, true) > MAX_BITS / 8)
      return { ok: false, detail: 'encodedList is not a GZIP stream of a bitstring of a sensible size.' };
    bits = gunzipSync(compressed);
  } catch {
    return { ok: false, detail: 'encodedList does not decode (base64url, then GZIP).' };
  }
  if ((bits.length * 8) / statusSize < MINIMUM_ENTRIES)
    return { ok: false, detail: `The list holds fewer than ${MINIMUM_ENTRIES} entries.` };
  const first = index * statusSize;
  if (first + statusSize > bits.length * 8)
    return { ok: false, detail: 'statusListIndex is outside the list.' };
  let value = 0;
  for (let bit = first; bit < first + statusSize; bit++)
    value = (value << 1) | (((bits[bit >> 3] ?? 0) >> (7 - (bit & 7))) & 1);
  return { ok: true, value };
}
