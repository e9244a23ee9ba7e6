import { SluiceError } from '../errors/index.js';
import { refuseNonUtf8Charset } from './body-charset.js';
import type { HandlerRequest } from '../handler/handler.js';
import { jsonBodyText, parseJson } from './json-text.js';

/** A KServe v1 body split into the requests the model's handler sees, one per instance, in order. */
export interface KServeInstances {
  /** The key the instances came under: `instances`, or `inputs` as KServe also reads them. */
  readonly listName: 'instances' | 'inputs';
  readonly requests: readonly HandlerRequest[];
}

const EXPECTED = 'a KServe v1 request is {"instances": [...]} (or {"inputs": [...]})';

function describe(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a JSON object' : `a JSON ${typeof value}`;
}

function invalid(message: string): SluiceError {
  return new SluiceError('SLUICE_REQUEST_INVALID', message);
}

/**
 * Splits a parsed KServe v1 body into one handler request per entry of its `instances` list (or of its
 * `inputs` list, as KServe also reads it), each marked `instance` and typed JSON. This is what KServe v1
 * `:predict` and the `kserve` envelope both read, so the two answer alike. A body that is no JSON object,
 * has neither key, has both (even one of them `null`: taking one would drop the other's data), or whose
 * list is not a list or is empty is `SLUICE_REQUEST_INVALID`.
 */
export function kserveInstances(body: unknown): KServeInstances {
  const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Readonly<Record<string, unknown>>) : undefined;
  if (record === undefined) throw invalid(EXPECTED);
  const hasInstances = 'instances' in record;
  if (hasInstances && 'inputs' in record) {
    throw invalid('the body has both "instances" and "inputs"; send the instances under one of them: {"instances": [...]} or {"inputs": [...]}');
  }
  const listName = hasInstances ? 'instances' : 'inputs';
  if (!(listName in record)) throw invalid(EXPECTED);
  const list = record[listName];
  if (!Array.isArray(list)) throw invalid(`${EXPECTED}; "${listName}" is ${describe(list)}, not a list with one entry per prediction`);
  if (list.length === 0) throw invalid(`"${listName}" is empty; send at least one instance`);
  return { listName, requests: list.map((instance: unknown) => ({ body: instance, contentType: 'application/json', instance: true })) };
}

/**
 * {@link kserveInstances} of a KServe v1 body's bytes, read as JSON whatever its media type: a `charset`
 * other than UTF-8 is refused (415), a body that is not JSON is `SLUICE_REQUEST_MALFORMED_JSON`.
 */
export function kserveInstancesOfBody(body: Uint8Array, charset: string | undefined): KServeInstances {
  refuseNonUtf8Charset(charset);
  return kserveInstances(parseJson(jsonBodyText(body)));
}
