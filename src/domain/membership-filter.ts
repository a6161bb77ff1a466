/**
 * A Bloom filter of strings (issue 18: the certificate numbers ever issued), so that a number
 * that was never issued can be answered "no" from memory. `has` never answers false for a string
 * that was added (no false negatives); it answers true for an absent one with probability
 * about `falsePositiveRate` when holding `capacity` strings.
 *
 * Written here rather than taken from npm: the maintained packages (`bloom-filters`, …) pull in
 * hashing and random-number dependencies for features this does not need; this is one class
 * with no imports, which runs unchanged in workerd and Node.
 *
 * Layout of `toBytes()`: a 16-byte header (magic "VPBF", bit count, hash count, strings added;
 * little-endian uint32) then the bit array. `fromBytes` refuses anything else (throws).
 */
const MAGIC = 0x46425056; // "VPBF" little-endian
const HEADER_BYTES = 16;

/** Bits and hash functions for `capacity` strings at `falsePositiveRate` (the textbook optimum). */
export function filterSize(capacity: number, falsePositiveRate: number): { bits: number; hashes: number } {
  const n = Math.max(1, Math.ceil(capacity));
  const bits = Math.max(64, Math.ceil((-n * Math.log(falsePositiveRate)) / Math.LN2 ** 2));
  // Rounded up to whole bytes so the array has no unused tail.
  const whole = Math.ceil(bits / 8) * 8;
  const hashes = Math.max(1, Math.round((whole / n) * Math.LN2));
  return { bits: whole, hashes };
}

/** Two independent 32-bit hashes of a string: FNV-1a and a murmur3-style mix (per UTF-16 unit). */
function hashPair(value: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b ^= b >>> 16;
  // An even step could cycle through only part of the bits; an odd one never does.
  return [a >>> 0, (b | 1) >>> 0];
}

export class BloomFilter {
  private constructor(
    readonly bits: number,
    readonly hashes: number,
    private readonly array: Uint8Array,
    private added: number,
  ) {}

  static forCapacity(capacity: number, falsePositiveRate: number): BloomFilter {
    const { bits, hashes } = filterSize(capacity, falsePositiveRate);
    return new BloomFilter(bits, hashes, new Uint8Array(bits / 8), 0);
  }

  /** How many strings were added (counting repeats). */
  get count(): number {
    return this.added;
  }

  add(value: string): void {
    const [h1, h2] = hashPair(value);
    for (let i = 0; i < this.hashes; i++) {
      const bit = (h1 + i * h2) % this.bits;
      this.array[bit >>> 3]! |= 1 << (bit & 7);
    }
    this.added++;
  }

  /** False: certainly never added. True: added, or a false positive. */
  has(value: string): boolean {
    const [h1, h2] = hashPair(value);
    for (let i = 0; i < this.hashes; i++) {
      const bit = (h1 + i * h2) % this.bits;
      if ((this.array[bit >>> 3]! & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }

  toBytes(): Uint8Array {
    const out = new Uint8Array(HEADER_BYTES + this.array.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint32(4, this.bits, true);
    view.setUint32(8, this.hashes, true);
    view.setUint32(12, this.added, true);
    out.set(this.array, HEADER_BYTES);
    return out;
  }

  /** The filter `toBytes` wrote; throws on anything else (a truncated or foreign value). */
  static fromBytes(bytes: ArrayBuffer | Uint8Array): BloomFilter {
    const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    if (u8.length < HEADER_BYTES) throw new Error('membership filter: too short');
    const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
    const bits = view.getUint32(4, true);
    const hashes = view.getUint32(8, true);
    if (view.getUint32(0, true) !== MAGIC) throw new Error('membership filter: not a filter');
    if (bits === 0 || bits % 8 !== 0 || u8.length !== HEADER_BYTES + bits / 8 || hashes < 1 || hashes > 32)
      throw new Error('membership filter: inconsistent header');
    return new BloomFilter(bits, hashes, u8.slice(HEADER_BYTES), view.getUint32(12, true));
  }
}
