import { SluiceError } from '../../sdk/errors/index.js';
import { MAR_HANDLER_MAP } from '../../model-store/index.js';

/**
 * A TorchServe management parameter Sluice accepted but does not act on: what was given and why it
 * changes nothing. Both management APIs put these in their answer and in the log.
 */
export interface IgnoredParameter {
  readonly parameter: string;
  readonly value: string;
  readonly reason: string;
}

/** TorchServe's base handlers that have a Sluice handler doing the same work (as `.mar` conversion maps them). */
export const TORCHSERVE_HANDLER_MAP: Readonly<Record<string, string>> = MAR_HANDLER_MAP;

/** TorchServe's `runtime` values: Sluice runs the model file itself, so none of them changes anything. */
const TORCHSERVE_RUNTIMES = ['python', 'python3', 'LSP', 'LDP'] as const;

function invalid(message: string): SluiceError {
  return new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', message);
}

/**
 * The bare handler name of a TorchServe `handler` value: `image_classifier`, or the module of
 * `serve/ts/torch_handler/image_classifier.py:handle` (its file name without `.py`, before the `:entry`).
 */
function moduleName(value: string): string {
  const file = value.split(':')[0] ?? value;
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.endsWith('.py') ? base.slice(0, -3) : base;
}

/**
 * The Sluice handler a registration's `handler` names: a Sluice handler name as it is, or one of
 * TorchServe's base handlers that Sluice has (by name or as a path such as
 * `ts/torch_handler/image_classifier.py:handle`). Throws `SLUICE_MANAGEMENT_INVALID_ARGUMENT` for anything
 * else, naming what would do, since a custom Python handler cannot run in Sluice.
 */
export function sluiceHandlerFor(value: string, known: readonly string[]): string {
  if (known.includes(value)) return value;
  const mapped = TORCHSERVE_HANDLER_MAP[moduleName(value)];
  if (mapped !== undefined && known.includes(mapped)) return mapped;
  const pairs = Object.entries(TORCHSERVE_HANDLER_MAP)
    .filter(([, sluice]) => known.includes(sluice))
    .map(([ts, sluice]) => `${ts} → ${sluice}`);
  throw invalid(
    `\`handler\` ${JSON.stringify(value)} names no handler Sluice has: give a Sluice handler (${known.join(', ')})` +
      (pairs.length > 0 ? ` or one of TorchServe's base handlers Sluice maps (${pairs.join(', ')})` : '') +
      '; a custom Python handler cannot run in Sluice (see docs/migrating-from-torchserve.md)',
  );
}

/**
 * Checks a registration's `runtime`: `onnx` is Sluice's own; TorchServe's runtimes are accepted and
 * ignored (Sluice runs the ONNX file itself); anything else is refused, as TorchServe refuses it.
 */
export function runtimeParameter(value: string): IgnoredParameter | undefined {
  if (value === 'onnx') return undefined;
  if ((TORCHSERVE_RUNTIMES as readonly string[]).includes(value)) {
    return { parameter: 'runtime', value, reason: "Sluice runs the model's ONNX file itself, with no Python or other runtime for handler code" };
  }
  throw invalid(`\`runtime\` must be onnx or one of TorchServe's runtimes (${TORCHSERVE_RUNTIMES.join(', ')}, accepted and ignored), got ${JSON.stringify(value)}`);
}

/** `s3_sse_kms=true`: Sluice downloads archives over plain http(s) from `allowedUrls`, with no AWS KMS step. */
export function s3SseKmsParameter(value: boolean | undefined): IgnoredParameter | undefined {
  if (value !== true) return undefined;
  return { parameter: 's3_sse_kms', value: 'true', reason: 'Sluice downloads archives over http(s) from allowedUrls and has no S3 SSE-KMS step; use a pre-signed URL' };
}

/** A scale's `timeout`: Sluice never kills a busy instance; one being removed finishes its batch first. */
export function scaleTimeoutParameter(value: number | undefined): IgnoredParameter | undefined {
  if (value === undefined || value === -1) return undefined;
  return { parameter: 'timeout', value: String(value), reason: 'an instance being removed always finishes the batch it runs (as timeout=-1 does); Sluice never stops one mid-batch' };
}

/** An unregistration's `synchronous` and `timeout`: Sluice always answers once the model is unloaded, its running batches finished. */
export function unregisterParameters(synchronous: boolean | undefined, timeout: number | undefined): IgnoredParameter[] {
  const ignored: IgnoredParameter[] = [];
  if (synchronous === false) {
    ignored.push({ parameter: 'synchronous', value: 'false', reason: 'unregistering always completes before the answer' });
  }
  if (timeout !== undefined) {
    ignored.push({ parameter: 'timeout', value: String(timeout), reason: 'requests already running finish, and the answer waits for them' });
  }
  return ignored;
}

/** `customized=true` on a description: Sluice's handlers have no custom describe step. */
export function customizedParameter(value: boolean | undefined): IgnoredParameter | undefined {
  if (value !== true) return undefined;
  return { parameter: 'customized', value: 'true', reason: "Sluice's handlers have no custom describe step; the description is the usual one" };
}

/**
 * A scale's `number_gpu` against the GPUs the version runs on (`gpuCount`, 0 on the CPU): placement is
 * fixed when a version loads (its manifest's `device` and the executor's `deviceIds`), so a different
 * number is ignored; the same number is what the version already has.
 */
export function numberGpuParameter(value: number | undefined, gpuCount: number, target: string): IgnoredParameter | undefined {
  if (value === undefined || value === gpuCount) return undefined;
  const now = gpuCount === 0 ? 'runs on the CPU' : `runs on ${gpuCount} GPU${gpuCount === 1 ? '' : 's'}`;
  return {
    parameter: 'number_gpu',
    value: String(value),
    reason: `${target} ${now}; GPU placement is chosen when a version loads (its manifest's device and the GPU executor's deviceIds), so register it again to change it`,
  };
}

/** What was ignored, in words: `parameter=value: reason`, separated by `; `. */
export function ignoredList(ignored: readonly IgnoredParameter[]): string {
  return ignored.map((i) => `${i.parameter}=${i.value}: ${i.reason}`).join('; ');
}

/** The sentence added to a status answer for what was ignored (empty when nothing was). */
export function ignoredSentence(ignored: readonly IgnoredParameter[]): string {
  return ignored.length === 0 ? '' : ` (ignored: ${ignoredList(ignored)})`;
}
