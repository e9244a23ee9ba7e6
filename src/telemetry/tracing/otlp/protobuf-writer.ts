import { hexDigit } from '../hex-words.js';

/** Wire types of the protobuf encoding. */
export const WIRE = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

/** The keys of `KeyValue.key`, `KeyValue.value` and `AnyValue.string_value`: length-delimited fields 1, 2 and 1. */
const KEY_VALUE_KEY = (1 << 3) | WIRE.lengthDelimited;
const KEY_VALUE_VALUE = (2 << 3) | WIRE.lengthDelimited;
const ANY_VALUE_STRING = (1 << 3) | WIRE.lengthDelimited;

const TWO_32 = 0x100000000;
const TWO_20 = 0x100000;
const TWO_12 = 0x1000;

/** Writes a time in epoch milliseconds (sub-millisecond precision) at `pos` of `view`, as nanoseconds (fixed64, little-endian). */
export function setEpochNanos(view: DataView, pos: number, millis: number): void {
  // Whole milliseconds times 1e6 exceed 2^53: split them at 20 bits so that every step stays exact.
  const whole = Math.floor(millis);
  const subMillisNanos = Math.round((millis - whole) * 1e6);
  const upper = Math.floor(whole / TWO_20);
  const upperNanos = upper * 1e6;
  const upperHigh = Math.floor(upperNanos / TWO_12);
  // nanos = upperNanos * 2^20 + lowerNanos = upperHigh * 2^32 + (upperNanos mod 2^12) * 2^20 + lowerNanos.
  const lowerNanos = (whole - upper * TWO_20) * 1e6 + subMillisNanos;
  const low = (upperNanos - upperHigh * TWO_12) * TWO_20 + lowerNanos;
  const low32 = low >>> 0;
  view.setUint32(pos, low32, true);
  view.setUint32(pos + 4, (upperHigh + (low - low32) / TWO_32) >>> 0, true);
}

/**
 * A protobuf writer over one growing buffer, reused from batch to batch. It writes into the buffer
 * directly (ids from hex, ASCII strings, nested lengths patched in place) so that encoding a span
 * allocates nothing: what makes encoding spans as they end cheaper than keeping them for a batch.
 */
export class ProtobufWriter {
  private buffer: Uint8Array;
  private view: DataView;
  /** Where the next byte goes; also the number of bytes written. */
  pos = 0;

  constructor(initialSize = 64 * 1024) {
    this.buffer = new Uint8Array(initialSize);
    this.view = new DataView(this.buffer.buffer);
  }

  /** Forgets what was written, keeping the buffer. */
  reset(): void {
    this.pos = 0;
  }

  /** A copy of what was written. */
  toBytes(): Uint8Array {
    return this.buffer.slice(0, this.pos);
  }

  /** What was written, without a copy: valid until the next write or {@link reset}. */
  written(): Uint8Array {
    return this.buffer.subarray(0, this.pos);
  }

  private ensure(more: number): void {
    const needed = this.pos + more;
    if (needed <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < needed) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buffer.subarray(0, this.pos));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }

  /** A field's key: its number and wire type. */
  tag(field: number, wireType: number): void {
    const key = (field << 3) | wireType;
    if (key > 0x7f) {
      this.varint(key);
      return;
    }
    this.ensure(1);
    this.buffer[this.pos++] = key;
  }

  /** An unsigned or signed (two's complement, 64-bit) integer as a varint. */
  varint(value: number): void {
    this.ensure(10);
    const buffer = this.buffer;
    if (value >= 0 && value < TWO_32) {
      let v = value >>> 0;
      while (v > 0x7f) {
        buffer[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buffer[this.pos++] = v;
      return;
    }
    let low: number;
    let high: number;
    if (value >= 0) {
      low = value >>> 0;
      high = Math.floor(value / TWO_32) >>> 0;
    } else {
      const magnitude = -value;
      low = ~(magnitude >>> 0) >>> 0;
      high = ~(Math.floor(magnitude / TWO_32) >>> 0) >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 0x7f) {
      buffer[this.pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buffer[this.pos++] = low;
  }

  /** A 32-bit little-endian integer. */
  fixed32(value: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, value >>> 0, true);
    this.pos += 4;
  }

  /** A 64-bit little-endian integer from its two 32-bit halves. */
  fixed64(low: number, high: number): void {
    this.ensure(8);
    this.view.setUint32(this.pos, low >>> 0, true);
    this.view.setUint32(this.pos + 4, high >>> 0, true);
    this.pos += 8;
  }

  /** A time as `[seconds, nanoseconds]`, written as nanoseconds (fixed64) without losing precision. */
  hrTime(time: readonly [number, number]): void {
    this.nanoseconds(time[0], time[1]);
  }

  /** A time in epoch milliseconds (sub-millisecond precision), written as nanoseconds (fixed64). */
  epochMillis(millis: number): void {
    this.ensure(8);
    setEpochNanos(this.view, this.pos, millis);
    this.pos += 8;
  }

  private nanoseconds(seconds: number, nanos: number): void {
    // seconds * 1e9 exceeds 2^53; split seconds at 16 bits so that every product stays exact.
    const upper = Math.floor(seconds / 0x10000) * 1e9;
    const upperLow = upper % TWO_32;
    const rest = upperLow * 0x10000 + (seconds % 0x10000) * 1e9 + nanos;
    this.fixed64(rest % TWO_32, Math.floor(rest / TWO_32) + Math.floor(upper / TWO_32) * 0x10000);
  }

  /** A 64-bit little-endian IEEE 754 number. */
  double(value: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  /** Length-prefixed bytes. */
  bytes(value: Uint8Array): void {
    this.varint(value.length);
    this.ensure(value.length);
    this.buffer.set(value, this.pos);
    this.pos += value.length;
  }

  /** Length-prefixed bytes given as hex (trace and span ids), decoded straight into the buffer. */
  hexBytes(hex: string): void {
    const length = hex.length >>> 1;
    this.varint(length);
    this.ensure(length);
    const buffer = this.buffer;
    for (let i = 0; i < hex.length; i += 2) buffer[this.pos++] = (hexDigit(hex.charCodeAt(i)) << 4) | hexDigit(hex.charCodeAt(i + 1));
  }

  /** A 16-byte id from its four 32-bit words (big-endian, as its hex spelling reads), length-prefixed. */
  traceIdBytes(word0: number, word1: number, word2: number, word3: number): void {
    this.ensure(17);
    this.buffer[this.pos++] = 16;
    const view = this.view;
    view.setUint32(this.pos, word0 >>> 0);
    view.setUint32(this.pos + 4, word1 >>> 0);
    view.setUint32(this.pos + 8, word2 >>> 0);
    view.setUint32(this.pos + 12, word3 >>> 0);
    this.pos += 16;
  }

  /** An 8-byte id from its two 32-bit halves (big-endian, as its hex spelling reads), length-prefixed. */
  idBytes(high: number, low: number): void {
    this.ensure(9);
    this.buffer[this.pos++] = 8;
    this.view.setUint32(this.pos, high >>> 0);
    this.view.setUint32(this.pos + 4, low >>> 0);
    this.pos += 8;
  }

  /** A length-prefixed UTF-8 string; ASCII (nearly every name and key) is copied character by character. */
  string(value: string): void {
    const length = value.length;
    const start = this.pos;
    this.varint(length);
    this.ensure(length);
    const end = this.copyAscii(value, this.pos);
    if (end < 0) {
      this.pos = start;
      this.bytes(Buffer.from(value, 'utf8'));
      return;
    }
    this.pos = end;
  }

  /**
   * Copies `value` byte per character from `pos` (room ensured by the caller, as with {@link reserve}):
   * where it ended, or -1 at the first non-ASCII character (the bytes before it are written).
   */
  copyAscii(value: string, pos: number): number {
    const buffer = this.buffer;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code > 0x7f) return -1;
      buffer[pos++] = code;
    }
    return pos;
  }

  /**
   * A `KeyValue` with a string value (`{1: key, 2: {1: value}}`) in field `field`, written in one pass
   * when everything fits one-byte lengths and both strings are ASCII, as nearly every span attribute
   * does. False (and nothing written) otherwise: the caller writes it field by field.
   */
  shortStringKeyValue(field: number, key: string, value: string): boolean {
    const keyLength = key.length;
    const valueLength = value.length;
    const anyLength = 2 + valueLength;
    const pairLength = 2 + keyLength + 2 + anyLength;
    if (pairLength > 0x7f || field > 15) return false;
    this.ensure(2 + pairLength);
    const buffer = this.buffer;
    let pos = this.pos;
    buffer[pos++] = (field << 3) | WIRE.lengthDelimited;
    buffer[pos++] = pairLength;
    buffer[pos++] = KEY_VALUE_KEY;
    buffer[pos++] = keyLength;
    pos = this.copyAscii(key, pos);
    if (pos < 0) return false;
    buffer[pos++] = KEY_VALUE_VALUE;
    buffer[pos++] = anyLength;
    buffer[pos++] = ANY_VALUE_STRING;
    buffer[pos++] = valueLength;
    pos = this.copyAscii(value, pos);
    if (pos < 0) return false;
    this.pos = pos;
    return true;
  }

  /** Already encoded bytes, as they are (no length prefix). */
  raw(value: Uint8Array): void {
    this.ensure(value.length);
    this.buffer.set(value, this.pos);
    this.pos += value.length;
  }

  /**
   * Makes room for `size` more bytes and returns the buffer, for a run of fields written in place from
   * {@link pos}; the caller then moves {@link pos} past them. {@link dataView} views the same memory.
   */
  reserve(size: number): Uint8Array {
    this.ensure(size);
    return this.buffer;
  }

  /** The buffer as a DataView; valid until the next write or {@link reserve}, which may grow the buffer. */
  get dataView(): DataView {
    return this.view;
  }

  /** Starts a length-delimited field's content: returns where its length goes, for {@link finish}. */
  start(): number {
    this.ensure(1);
    return this.pos++;
  }

  /** Writes the length of the content started at `at`, moving the content when the length needs more than one byte. */
  finish(at: number): void {
    const length = this.pos - at - 1;
    if (length < 0x80) {
      this.buffer[at] = length;
      return;
    }
    let size = 1;
    for (let v = length; v > 0x7f; v >>>= 7) size++;
    this.ensure(size - 1);
    this.buffer.copyWithin(at + size, at + 1, this.pos);
    this.pos += size - 1;
    let v = length;
    let p = at;
    while (v > 0x7f) {
      this.buffer[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buffer[p] = v;
  }
}
