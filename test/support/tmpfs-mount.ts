import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Why a small tmpfs cannot be mounted here (not root, a container without the privilege, no `mount`), or
 * undefined when it can: found by mounting and unmounting one, synchronously, so a test file can choose
 * `describe` or `describe.skip` while it loads.
 */
export function tmpfsUnavailable(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tmpfs-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { encoding: 'utf8' });
    if (mounted.error !== undefined) return `mount could not run (${mounted.error.message})`;
    if (mounted.status !== 0) return `mounting a tmpfs was refused (${mounted.stderr.trim() || `exit ${String(mounted.status)}`}); it needs root and the privilege to mount`;
    const unmounted = spawnSync('umount', [dir], { encoding: 'utf8' });
    if (unmounted.status !== 0) return `a probe tmpfs could not be unmounted (${unmounted.stderr.trim()})`;
    return undefined;
  } finally {
    rmdirSync(dir);
  }
}

/** Mounts a tmpfs of `size` (`2m`) on the existing directory `dir`. */
export async function mountTmpfs(dir: string, size: string): Promise<void> {
  await run('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
}

/** Unmounts the tmpfs on `dir`. */
export async function unmountTmpfs(dir: string): Promise<void> {
  await run('umount', [dir]);
}
