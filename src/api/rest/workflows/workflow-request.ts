import { SluiceError } from '../../../sdk/errors/index.js';

/** `?debug=`: absent or `false` is off, `true` on; anything else is refused rather than read as off. */
export function debugFlag(value: string | string[] | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new SluiceError('SLUICE_REQUEST_INVALID', `the debug query parameter must be true or false (once), got ${JSON.stringify(value)}`);
}

/** How much of a run's progress a streamed answer carries: see {@link progressLevel}. */
export type ProgressLevel = 'calls' | 'nodes' | 'nested';

/**
 * `?progress=`: absent or `calls` streams the finished `forEach` calls (the default), `nodes` also every node
 * of the run as it settles, `nested` also the nodes inside its sub-workflows; anything else is refused.
 * Only a streamed answer carries progress.
 */
export function progressLevel(value: string | string[] | undefined): ProgressLevel {
  if (value === undefined || value === 'calls') return 'calls';
  if (value === 'nodes' || value === 'nested') return value;
  throw new SluiceError('SLUICE_REQUEST_INVALID', `the progress query parameter must be calls, nodes or nested (once), got ${JSON.stringify(value)}`);
}
