import { SluiceError } from '../../sdk/errors/index.js';

/**
 * How deep a JSON request body may nest to be handed to a handler thread. Structured cloning recurses
 * once per level and overflows the stack at one to four thousand levels, depending on what is on the
 * stack already; JSON that real clients send nests a few levels (tensor data at most 32).
 */
export const MAX_THREAD_BODY_DEPTH = 256;

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);
}

/**
 * Whether `value` nests arrays or objects more than `limit` levels deep; walks level by level without
 * recursing, and holds on to containers only, so a long flat array of numbers costs one pass.
 */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  let level: object[] = isContainer(value) ? [value] : [];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth >= limit) return true;
    const next: object[] = [];
    for (const node of level) {
      for (const child of Array.isArray(node) ? (node as unknown[]) : Object.values(node)) if (isContainer(child)) next.push(child);
    }
    level = next;
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
