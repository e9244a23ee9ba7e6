import type { PreparedRequest } from '../../sdk/handler/handler.js';

function movable(view: unknown, into: Set<ArrayBuffer>): void {
  if (!ArrayBuffer.isView(view)) return;
  const { buffer } = view;
  // A view onto part of a buffer (Node's pooled Buffers, a slice of a batch) must not take the rest with it.
  if (buffer instanceof ArrayBuffer && view.byteOffset === 0 && view.byteLength === buffer.byteLength && buffer.byteLength > 0) into.add(buffer);
}

/**
 * The buffers of prepared inputs that can be moved rather than copied to the main thread: those of typed
 * arrays (and BYTES elements) that span their whole, unshared buffer.
 */
export function preparedTransferList(prepared: readonly unknown[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const entry of prepared) {
    const inputs = (entry as Partial<PreparedRequest> | null)?.inputs;
    if (!Array.isArray(inputs)) continue;
    for (const tensor of inputs as readonly Partial<PreparedRequest['inputs'][number]>[]) {
      const data = tensor.data;
      if (Array.isArray(data)) for (const element of data) movable(element, buffers);
      else movable(data, buffers);
    }
  }
  return [...buffers];
}
