/** Largest element of a tensor (8 bytes: FP64, INT64): binary tensors are aligned to it. */
export const TENSOR_ALIGNMENT = 8;

/** Bytes of one slab that small bodies are cut from. */
const SLAB_BYTES = 64 * 1024;

/** Bodies above this get memory of their own: a slab holds at least four of the largest it takes. */
const LARGEST_SLAB_BODY = SLAB_BYTES / 4;

function alignedFrom(memory: Buffer, start: number, length: number, alignAt: number): Buffer {
  // Typed-array alignment is counted from the start of the ArrayBuffer, not from the Buffer's own start.
  const pad = (TENSOR_ALIGNMENT - ((memory.byteOffset + start + alignAt) % TENSOR_ALIGNMENT)) % TENSOR_ALIGNMENT;
  return memory.subarray(start + pad, start + pad + length);
}

/**
 * Memory for request bodies. A body is placed so that its byte `alignAt` starts on an 8-byte boundary of
 * its ArrayBuffer: raw tensors that follow a JSON header of `alignAt` bytes can then be viewed in place.
 *
 * Small bodies are cut from a shared slab rather than each getting an ArrayBuffer of its own, because on
 * the request path a fresh ArrayBuffer per request costs more than reading the body (its allocation, and
 * the garbage collector's bookkeeping of external memory). A slab is freed when no body cut from it is
 * referenced any more. The bytes handed out are never shared between two bodies, and the caller fills
 * them all before anyone reads them.
 */
export class BodyMemory {
  private slab = Buffer.allocUnsafeSlow(0);
  private used = 0;

  /** `length` bytes, not zeroed, with byte `alignAt` on an 8-byte boundary. */
  allocate(length: number, alignAt = 0): Buffer {
    const reserved = length + TENSOR_ALIGNMENT;
    if (reserved > LARGEST_SLAB_BODY) return alignedFrom(Buffer.allocUnsafeSlow(reserved), 0, length, alignAt);
    if (this.used + reserved > this.slab.length) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.used = 0;
    }
    const body = alignedFrom(this.slab, this.used, length, alignAt);
    // The next body starts on a fresh 8-byte boundary, after this one's last byte.
    this.used = body.byteOffset - this.slab.byteOffset + length;
    this.used += (TENSOR_ALIGNMENT - (this.used % TENSOR_ALIGNMENT)) % TENSOR_ALIGNMENT;
    return body;
  }
}

/** The memory every request body of this process is read into. */
export const requestBodyMemory = new BodyMemory();
