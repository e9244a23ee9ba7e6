/**
 * How long the process may stay once the command has its exit status: long enough for what a clean stop
 * leaves to finish, short enough that a handle left open (by a plugin that failed start-up, say) does
 * not keep a failed `sluice start` waiting without end.
 */
const LINGER_MS = 2000;

const NOTHING_LEFT_TO_RUN =
  'sluice: stopped unfinished: the process ran out of work while still waiting for a promise that can no longer settle ' +
  "(a plugin's model load or onShutdown callback that never resolves, for example); fix or remove that plugin\n";

/**
 * Runs the command line as the process's work and exits with the status `run` resolves with. The
 * process never ends without saying why: running out of work while `run` is pending (a promise nothing
 * will settle) prints a line on stderr and exits 1, where a pending top-level await would exit 13 in
 * silence. A rejection is left to Node, which prints it and exits 1.
 */
export function runAsProcess(run: Promise<number>): void {
  let settled = false;
  process.on('exit', () => {
    if (settled) return;
    process.stderr.write(NOTHING_LEFT_TO_RUN);
    process.exitCode = 1;
  });
  run.then(
    (code) => {
      settled = true;
      process.exitCode = code;
      setTimeout(() => process.exit(), LINGER_MS).unref();
    },
    (error: unknown) => {
      settled = true;
      throw error;
    },
  );
}
