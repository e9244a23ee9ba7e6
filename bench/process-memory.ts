import { readFile } from 'node:fs/promises';

/** The `VmRSS` line of a `/proc/<pid>/status` text, in bytes. */
export function parseVmRssBytes(statusText: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(statusText);
  if (match?.[1] === undefined) throw new Error('no VmRSS line in the process status');
  return Number(match[1]) * 1024;
}

/** Resident memory of process `pid`, in bytes (Linux: `/proc/<pid>/status`). */
export async function residentBytes(pid: number): Promise<number> {
  return parseVmRssBytes(await readFile(`/proc/${pid}/status`, 'utf8'));
}
