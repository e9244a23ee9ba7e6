import { SluiceError, type ErrorCode } from '../../sdk/errors/index.js';

/** Advice appended to messages about archives that were damaged or changed after packing. */
export const REPACK_ADVICE = "pack the directory again with `sluice archive`";

/** An error about `archive`, whose message starts with the archive's path. */
export function archiveError(code: ErrorCode, archive: string, problem: string, details: Record<string, unknown> = {}): SluiceError {
  return new SluiceError(code, `${archive}: ${problem}`, { archive, ...details });
}
