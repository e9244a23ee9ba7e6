import type { Metadata } from '@grpc/grpc-js';
import { SluiceError } from '../../../sdk/errors/index.js';

/** The metadata entry a streaming call names the workflow progress it wants by, as HTTP's `?progress=`. */
export const PROGRESS_METADATA = 'x-sluice-progress';

/**
 * How much of a workflow run's progress a streaming call asks for (`x-sluice-progress`): `calls` (the
 * default when absent), each finished `forEach` call; `nodes`, also every node of the run as it settles;
 * `nested`, also the nodes inside its sub-workflows. Anything else is refused, as HTTP refuses a
 * misspelt `?progress=`.
 */
export function progressLevelOf(metadata: Metadata): 'calls' | 'nodes' | 'nested' {
  const values = metadata.get(PROGRESS_METADATA);
  if (values.length === 0) return 'calls';
  const [value] = values;
  if (values.length === 1 && (value === 'calls' || value === 'nodes' || value === 'nested')) return value;
  const given = values.map((v) => (typeof v === 'string' ? v : '<binary>')).join(', ');
  throw new SluiceError('SLUICE_REQUEST_INVALID', `the ${PROGRESS_METADATA} metadata must be calls, nodes or nested (once), got ${JSON.stringify(given)}`);
}
