import { formatKeyPath } from '../../json-schema/index.js';

/**
 * A JSON pointer (RFC 6901) into the workflow document, `/nodes/detect/inputs/x`; `''` is the root.
 * Problems, source positions and ajv errors all address the document this way.
 */
export type JsonPointer = string;

/** The pointer of `key` (or list index) below `parent`, escaping `~` and `/` as RFC 6901 asks. */
export function childPointer(parent: JsonPointer, key: string | number): JsonPointer {
  return `${parent}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** The pointer made of `keys` from the root. */
export function pointerOf(...keys: readonly (string | number)[]): JsonPointer {
  return keys.reduce<JsonPointer>((pointer, key) => childPointer(pointer, key), '');
}

/** The pointer one level up (the root stays the root). */
export function parentPointer(pointer: JsonPointer): JsonPointer {
  return pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
}

/** The readable key path people see in problems: `nodes.detect.inputs.x`, `(top level)` for the root. */
export function displayPath(pointer: JsonPointer): string {
  return formatKeyPath(pointer);
}
