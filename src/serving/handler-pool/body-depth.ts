import { SluiceError } from '../../common/errors/index.js';

/**
 * How deep a JSON request body may nest to be handed to a handler thread. Structured cloning recurses
 * once per level and overflows the stack at one to four thousand levels, depending on what is on the
 * stack already; JSON that real clients send nests a few levels (tensor data at most 32).
 */
export const MAX_THREAD_BODY_DEPTH = 256;

/** Whether `value` nests arrays or objects more than `limit` levels deep; walks without recursing. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null || ArrayBuffer.isView(node)) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * Refuses a request body that cannot cross to a handler thread because it nests too deeply, with
 * `SLUICE_REQUEST_INVALID`: the client's JSON is at fault, not the handler or its thread.
 */
export function checkThreadBodyDepth(body: unknown): void {
  if (!nestsDeeperThan(body, MAX_THREAD_BODY_DEPTH)) return;
  throw new SluiceError(
    'SLUICE_REQUEST_INVALID',
    `the request body nests more than ${MAX_THREAD_BODY_DEPTH} levels of JSON arrays or objects, more than the model's handler takes; send flatter JSON`,
    { maxDepth: MAX_THREAD_BODY_DEPTH },
  );
}
