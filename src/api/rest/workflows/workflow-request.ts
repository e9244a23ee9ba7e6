import { SluiceError } from '../../../sdk/errors/index.js';

/** `?debug=`: absent or `false` is off, `true` on; anything else is refused rather than read as off. */
export function debugFlag(value: string | string[] | undefined): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new SluiceError('SLUICE_REQUEST_INVALID', `the debug query parameter must be true or false (once), got ${JSON.stringify(value)}`);
}
