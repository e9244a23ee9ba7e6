import { basename } from 'node:path';
import { SluiceError, type ErrorDetails } from '../../sdk/errors/index.js';

/** `SLUICE_MODEL_LOAD_FAILED` for `modelPath`, with the reason given by ONNX Runtime or the file system. */
export function modelLoadFailed(
  modelPath: string,
  reason: string,
  details: ErrorDetails = {},
  cause?: unknown,
): SluiceError {
  return new SluiceError(
    'SLUICE_MODEL_LOAD_FAILED',
    `cannot load ONNX model ${modelPath}: ${reason}`,
    { modelPath, reason, ...details },
    { cause },
  );
}

/**
 * How errors of a run name the model file: by its base name. They reach inference clients, who have no
 * business learning where the server keeps its files (the full path stays in the error's details).
 */
export function runModelFile(modelPath: string): string {
  return `model file \`${basename(modelPath)}\``;
}

/** `SLUICE_MODEL_UNLOADING` for a run asked of the session of `modelPath` after its release. */
export function sessionReleased(modelPath: string): SluiceError {
  return new SluiceError('SLUICE_MODEL_UNLOADING', `the session for ${runModelFile(modelPath)} has been released; it cannot run any more`, { modelPath });
}

/**
 * The message of anything thrown, trimmed, for error details and logs. Errors raised by the native
 * binding may come from another realm, so this looks for a `message` rather than using `instanceof`.
 */
export function reasonOf(error: unknown): string {
  const message = typeof error === 'object' && error !== null && 'message' in error ? error.message : undefined;
  return (typeof message === 'string' ? message : String(error)).trim();
}
