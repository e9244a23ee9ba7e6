import { SluiceError } from '../../common/errors/index.js';
import type { HandlerRequest } from '../../plugins/sdk/handler.js';

/** A KServe v1 body split into the requests the model's handler sees, one per instance, in order. */
export interface KServeV1Instances {
  /** The key the instances came under: `instances`, or `inputs` as KServe also reads them. */
  readonly listName: 'instances' | 'inputs';
  readonly requests: readonly HandlerRequest[];
}

const EXPECTED = 'a KServe v1 request is {"instances": [...]} (or {"inputs": [...]})';

function describe(value: unknown): string {
  if (value === null) return 'null';
  return typeof value === 'object' ? 'a JSON object' : `a JSON ${typeof value}`;
}

/**
 * Splits a KServe v1 `:predict` body (as {@link HandlerRequest.body} holds it) into one handler
 * request per entry of its `instances` list (`inputs` when there is no `instances`), each marked
 * `instance` and typed JSON, as the `kserve` envelope splits it. A body without such a list, or with
 * an empty one, is `SLUICE_REQUEST_INVALID`.
 */
export function kserveV1Instances(body: unknown): KServeV1Instances {
  const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Readonly<Record<string, unknown>>) : undefined;
  const listName = record !== undefined && 'instances' in record ? 'instances' : 'inputs';
  if (record === undefined || !(listName in record)) throw new SluiceError('SLUICE_REQUEST_INVALID', EXPECTED);
  const list = record[listName];
  if (!Array.isArray(list)) {
    throw new SluiceError('SLUICE_REQUEST_INVALID', `${EXPECTED}; "${listName}" is ${describe(list)}, not a list with one entry per prediction`);
  }
  if (list.length === 0) throw new SluiceError('SLUICE_REQUEST_INVALID', `"${listName}" is empty; send at least one instance`);
  return { listName, requests: list.map((instance: unknown) => ({ body: instance, contentType: 'application/json', instance: true })) };
}
