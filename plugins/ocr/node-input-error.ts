import { SluiceError } from '../../src/sdk/index.js';

/** The error a handler throws when one of its inputs is missing or is not what it reads. */
export function invalidNodeInput(handler: string, input: string, problem: string): SluiceError {
  return new SluiceError('SLUICE_REQUEST_INVALID', `${handler}: input \`${input}\` ${problem}`, { handler, input });
}
