/**
 * Reading a W3C Bitstring Status List (v1.0 § "Validate Algorithm"): `encodedList` is multibase
 * base64url (`u`) of the GZIP-compressed bitstring; index 0 is the left-most bit of the first
 * byte. Plain TypeScript (fflate).
 */
import { Gunzip } from 'fflate';
import { base64url } from 'jose';
import { crc32 } from '../certificates/badge';

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
  const bits = decodedList(encodedList);
  if (typeof bits === 'string') return { ok: false, detail: bits };
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

/** Input fed to the inflater at a time: one push can inflate to at most about 1,032 times this. */
const INPUT_STEP = 1024;
/** Decoded lists kept in this isolate (by their encoded text), so a list is inflated once. */
const decoded = new Map<string, Uint8Array>();
const DECODED_KEPT = 16;

/**
 * The bitstring of an `encodedList`, or why not: inflated as a stream that stops as soon as the
 * output passes the cap (a gzip bomb costs at most the cap, never its claimed size), then the
 * trailer checked (CRC-32 and ISIZE of the output, RFC 1952 § 2.3.1): a corrupt stream is refused.
 * Kept, once decoded, for the next verification that reads the same list.
 */
export function decodedList(encodedList: string): Uint8Array | string {
  const kept = decoded.get(encodedList);
  if (kept) return kept;
  let compressed: Uint8Array;
  try {
    compressed = base64url.decode(encodedList.slice(1));
  } catch {
    return 'encodedList is not base64url.';
  }
  if (compressed.length < 18 || compressed[0] !== 0x1f || compressed[1] !== 0x8b)
    return 'encodedList is not a GZIP stream.';
  const max = MAX_BITS / 8;
  const parts: Uint8Array[] = [];
  let size = 0;
  let over = false;
  try {
    const gunzip = new Gunzip((chunk) => {
      size += chunk.length;
      if (size > max) over = true;
      else parts.push(chunk);
    });
    for (let at = 0; at < compressed.length && !over; at += INPUT_STEP) {
      const end = Math.min(at + INPUT_STEP, compressed.length);
      gunzip.push(compressed.subarray(at, end), end === compressed.length);
    }
  } catch {
    return 'encodedList does not inflate (a damaged GZIP stream).';
  }
  if (over) return `encodedList inflates past ${max} bytes (${MAX_BITS} entries): refused.`;
  const bits = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bits.set(part, offset);
    offset += part.length;
  }
  const view = new DataView(compressed.buffer, compressed.byteOffset, compressed.byteLength);
  const crc = view.getUint32(compressed.length - 8, true);
  const isize = view.getUint32(compressed.length - 4, true);
  if (isize !== size >>> 0 || crc !== crc32(bits))
    return 'encodedList fails its GZIP check (CRC-32 or length): a corrupt list is not read.';
  if (decoded.size >= DECODED_KEPT) decoded.delete(decoded.keys().next().value as string);
  decoded.set(encodedList, bits);
  return bits;
}
