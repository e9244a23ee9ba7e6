import { SluiceError } from '../../../sdk/errors/index.js';

/** `?debug=`: absent or `false` is off, `true` on; anything else is refused rather than read as off. */
export function debugFlag(value: string | string[] | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new SluiceError('SLUICE_REQUEST_INVALID', `the debug query parameter must be true or false (once), got ${JSON.stringify(value)}`);
}

/**
 * `?progress=`: absent or `calls` streams the finished `forEach` calls (the default), `nodes` also every node
 * as it settles; anything else is refused. Only a streamed answer carries progress.
 */
export function nodesProgressFlag(value: string | string[] | undefined): boolean {
  if (value === undefined || value === 'calls') return false;
  if (value === 'nodes') return true;
  throw new SluiceError('SLUICE_REQUEST_INVALID', `the progress query parameter must be calls or nodes (once), got ${JSON.stringify(value)}`);
}
