import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dump, loadAll } from 'js-yaml';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { makeTempDir } from '../temp-dir.js';
import { findTool } from './deploy-tools.js';
import type { K8sObject } from './k8s-validation.js';
import { runProcess, type ProcessResult } from './run-process.js';

/** The chart's folder. */
export const CHART_DIR = join(packageRoot(), 'deploy', 'helm', 'sluice');

/** Example values files beside the chart, each rendered by the tests. */
export const CHART_EXAMPLES_DIR = join(packageRoot(), 'deploy', 'helm', 'examples');

/** The release and namespace the tests render as. */
export const RELEASE = { name: 'demo', namespace: 'serving' } as const;

function helm(): string {
  const path = findTool('helm');
  if (path === undefined) throw new Error('helm not found; deploy/scripts/deploy-tools.sh gets it');
  return path;
}

/** `helm lint --strict` of the chart. */
export function lintChart(): Promise<ProcessResult> {
  return runProcess(helm(), ['lint', '--strict', CHART_DIR]);
}

/** What `helm template` printed, and the objects it rendered. */
export interface Rendered extends ProcessResult {
  readonly objects: readonly K8sObject[];
}

/**
 * `helm template` of the chart with `values` (an object, written to a values file, or the paths of values
 * files), as release {@link RELEASE}. The objects are empty when it failed.
 */
export async function renderChart(values: Readonly<Record<string, unknown>> | readonly string[] = {}): Promise<Rendered> {
  const temp = await makeTempDir('sluice-chart-');
  try {
    let files: readonly string[];
    if (Array.isArray(values)) files = values as readonly string[];
    else {
      const file = join(temp.dir, 'values.yaml');
      await writeFile(file, dump(values));
      files = [file];
    }
    const result = await runProcess(helm(), ['template', RELEASE.name, CHART_DIR, '--namespace', RELEASE.namespace, ...files.flatMap((file) => ['--values', file])]);
    const objects = result.code === 0 ? (loadAll(result.stdout).filter((doc) => doc !== null && doc !== undefined) as K8sObject[]) : [];
    return { ...result, objects };
  } finally {
    await temp.cleanup();
  }
}

/** The kinds the tests look into, by name. */
interface KindTypes {
  readonly Deployment: IDeployment;
  readonly ConfigMap: IConfigMap;
  readonly Secret: ISecret;
  readonly Service: IService;
  readonly NetworkPolicy: INetworkPolicy;
}

/** The one object of `kind` (and `name`, when given) among `objects`; throws when there is not exactly one. */
export function objectOf<K extends keyof KindTypes>(objects: readonly K8sObject[], kind: K, name?: string): KindTypes[K] {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));
  if (found.length !== 1) throw new Error(`${found.length} objects of kind ${kind}${name === undefined ? '' : ` named ${name}`} rendered`);
  return found[0] as unknown as KindTypes[K];
}
