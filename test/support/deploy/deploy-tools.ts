import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from '@jest/globals';
import { describeWherePossible } from '../describe-where-possible.js';
import { packageRoot } from '../../../src/package-files/package-root.js';

/** The programs the deployment checks run. */
export type DeployTool = 'helm' | 'podman' | 'mmdebstrap' | 'nginx';

/**
 * Set to `required` (CI does) to make a deployment check fail when a tool is missing; elsewhere such a check
 * is skipped, saying why, so that `npm test` still runs on a developer's machine without podman.
 */
export const DEPLOY_CHECKS_VARIABLE = 'SLUICE_DEPLOY_CHECKS';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  return (process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, name)).find(isExecutable);
}

/** Where `deploy/scripts/deploy-tools.sh` puts helm (and kubectl). */
export const DEPLOY_BIN = join(packageRoot(), '.scratch', 'deploy', 'bin');

/** The path of `tool`, or undefined: helm from deploy-tools.sh's folder or PATH, nginx from PATH or /usr/sbin (a user's PATH may lack it), the others from PATH. */
export function findTool(tool: DeployTool): string | undefined {
  if (tool === 'helm') {
    const local = join(DEPLOY_BIN, 'helm');
    return isExecutable(local) ? local : onPath('helm');
  }
  if (tool === 'nginx') return onPath('nginx') ?? (isExecutable('/usr/sbin/nginx') ? '/usr/sbin/nginx' : undefined);
  return onPath(tool);
}

/**
 * `describe(name, body)` when every tool of `needs` is there. Otherwise, with SLUICE_DEPLOY_CHECKS=required,
 * one failing test naming what is missing; without it, the block skipped and a warning naming what is
 * missing and how to get it.
 */
export function describeWithTools(name: string, needs: readonly DeployTool[], body: () => void): void {
  const missing = needs.filter((tool) => findTool(tool) === undefined);
  if (missing.length === 0) {
    describe(name, body);
    return;
  }
  const reason = `${missing.join(', ')} not found; deploy/scripts/deploy-tools.sh --install gets them`;
  if (process.env[DEPLOY_CHECKS_VARIABLE] === 'required') {
    describe(name, () => {
      it('has the tools it needs', () => {
        throw new Error(`${DEPLOY_CHECKS_VARIABLE}=required, but ${reason}`);
      });
    });
    return;
  }
  describeWherePossible(name, `${reason} (set ${DEPLOY_CHECKS_VARIABLE}=required to fail instead)`, body);
}
