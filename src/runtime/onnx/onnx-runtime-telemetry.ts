/**
 * The variable ONNX Runtime reads, once per process, when it creates its first session: a true value
 * (`1`, `true`, `yes`, `on`, `y`) keeps its usage telemetry off; anything else leaves it on.
 */
export const ORT_TELEMETRY_SWITCH = 'ORT_DISABLE_TELEMETRY';

/**
 * Keeps ONNX Runtime's usage telemetry off in `env` (the process's by default), unless whoever started
 * the process set {@link ORT_TELEMETRY_SWITCH} to a value (`ORT_DISABLE_TELEMETRY=0` lets it run; an
 * empty value is no choice). Since 1.29 the Linux and macOS builds send events about the process, its
 * sessions and their models to Microsoft's collector, and write a device id and an event cache under
 * the user's cache folder and a `mat-debug-<pid>.log` in the temporary folder; a model server must not
 * reach out to the network or litter its host unasked. Call it before the first session is created, on
 * the main thread: a worker thread's `process.env` is a copy that native code does not read. Answers
 * whether it set the variable.
 */
export function keepOnnxRuntimeTelemetryOff(env: NodeJS.ProcessEnv = process.env): boolean {
  const chosen = env[ORT_TELEMETRY_SWITCH];
  if (chosen !== undefined && chosen !== '') return false;
  env[ORT_TELEMETRY_SWITCH] = '1';
  return true;
}
