import { SluiceError, isSluiceError } from '../../sdk/errors/index.js';

/**
 * `thrown` as a Sluice error, for both transports: itself when it is one, else `SLUICE_INTERNAL`, whose
 * message tells the client no more than that the server log has the details (the log gets the cause).
 */
export function unexpectedError(thrown: unknown): SluiceError {
  if (isSluiceError(thrown)) return thrown;
  return new SluiceError('SLUICE_INTERNAL', 'internal error; the server log has the details', {}, { cause: thrown });
}
