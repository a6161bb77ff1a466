/**
 * W3C Bitstring Status List v1.0: revocation inside the credential. Each credential names one
 * bit (its `statusListIndex`) of a list; the list is published as a signed credential whose
 * `encodedList` is the multibase (`u` = base64url, no padding) encoding of the GZIP-compressed
 * bitstring. Index 0 is the left-most (most significant) bit of the first byte.
 *
 * Every list holds {@link STATUS_LIST_SIZE} bits (the specification's minimum of 131,072, 16 KB,
 * for herd privacy: fetching the list tells the issuer nothing about which credential is being
 * checked). A global index `i` is bit `i mod size` of list `floor(i / size)`. Plain TypeScript.
 */
import { gzipSync } from 'fflate';
import { base64url } from 'jose';

export const STATUS_LIST_SIZE = 131_072;

export type StatusPurpose = 'revocation';

/** Where a global index lives: which list, which bit. */
export function statusPosition(index: number): { list: number; bit: number } {
  if (!Number.isSafeInteger(index) || index < 0)
    throw new RangeError('status index must be a natural number');
  return { list: Math.floor(index / STATUS_LIST_SIZE), bit: index % STATUS_LIST_SIZE };
}

/** A bitstring of `size` bits with the given bit positions set (index 0 = MSB of byte 0). */
export function bitstring(setBits: Iterable<number>, size = STATUS_LIST_SIZE): Uint8Array {
  if (size % 8 !== 0) throw new RangeError('size must be a multiple of 8');
  const bytes = new Uint8Array(size / 8);
  for (const bit of setBits) {
    if (!Number.isInteger(bit) || bit < 0 || bit >= size) throw new RangeError(`bit ${bit} out of range`);
    bytes[bit >> 3] = (bytes[bit >> 3] ?? 0) | (0x80 >> (bit & 7));
  }
  return bytes;
}

/**
 * `encodedList`: `u` + base64url(GZIP(bitstring)). The GZIP header's modification time is zero,
 * so the same bits always encode to the same string (and the same ETag).
 */
export function encodeStatusList(bits: Uint8Array): string {
  return `u${base64url.encode(gzipSync(bits, { level: 9, mtime: 0 }))}`;
}

/** The unsigned status list credential (the JWT claims are added by the signer). */
export function statusListCredential(input: {
  url: string;
  issuerId: string;
  purpose: StatusPurpose;
  encodedList: string;
  validFrom: string;
  /** Seconds a verifier may cache the list (the spec's `ttl` is in milliseconds). */
  maxAgeSeconds: number;
}) {
  return {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    id: input.url,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: input.issuerId,
    validFrom: input.validFrom,
    credentialSubject: {
      id: `${input.url}#list`,
      type: 'BitstringStatusList',
      statusPurpose: input.purpose,
      encodedList: input.encodedList,
      ttl: input.maxAgeSeconds * 1000,
    },
  };
}

/** The `credentialStatus` entry of a credential whose bit is `index`. */
export function statusEntry(listUrlFor: (list: number) => string, purpose: StatusPurpose, index: number) {
  const { list } = statusPosition(index);
  const url = listUrlFor(list);
  return {
    id: `${url}#${index % STATUS_LIST_SIZE}`,
    type: 'BitstringStatusListEntry',
    statusPurpose: purpose,
    statusListIndex: String(index % STATUS_LIST_SIZE),
    statusListCredential: url,
  };
}
