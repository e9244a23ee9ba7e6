import { SluiceError } from '../sdk/errors/index.js';

/** A registered workflow's use of a model: the version it names, or none (it runs the default of the moment). */
export interface ModelUse {
  readonly workflow: string;
  /** The version the workflow names; undefined when any registered version will do. */
  readonly version: string | undefined;
}

/** What an unregistration would take away from model `name`. */
export interface ModelRemoval {
  readonly name: string;
  /** The version asked for; undefined when every version goes. */
  readonly version: string | undefined;
  /** The registered versions it removes. */
  readonly removed: readonly string[];
  /** The registered versions left after it. */
  readonly remaining: readonly string[];
}

/** Whether `use` still has something to run once `removal` is done. */
function brokenBy(use: ModelUse, removal: ModelRemoval): boolean {
  if (use.version !== undefined) return removal.removed.includes(use.version);
  return removal.remaining.length === 0;
}

/**
 * Refuses an unregistration that would leave a registered workflow without its model, with
 * `SLUICE_MODEL_IN_USE` naming the workflows: a workflow that names a version loses it when that version
 * goes, one that names none only when the last version goes. Runs of such a workflow would fail until it
 * is unregistered, so it goes first.
 */
export function checkModelNotInUse(removal: ModelRemoval, uses: readonly ModelUse[]): void {
  const workflows = [...new Set(uses.filter((use) => brokenBy(use, removal)).map((use) => use.workflow))].sort();
  if (workflows.length === 0) return;
  const target = `model \`${removal.name}\`${removal.version === undefined ? '' : ` version \`${removal.version}\``}`;
  const users = `${workflows.length === 1 ? 'workflow' : 'workflows'} ${workflows.map((w) => `\`${w}\``).join(', ')}`;
  const routes = workflows.map((w) => `DELETE /workflows/${w}`).join(', ');
  throw new SluiceError(
    'SLUICE_MODEL_IN_USE',
    `cannot unregister ${target}: ${users} ${workflows.length === 1 ? 'uses' : 'use'} it and would fail without it; unregister ${workflows.length === 1 ? 'the workflow' : 'those workflows'} first (${routes}), then the model`,
    { model: removal.name, ...(removal.version !== undefined ? { version: removal.version } : {}), workflows },
  );
}
