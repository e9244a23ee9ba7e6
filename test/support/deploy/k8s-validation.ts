import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { packageRoot } from '../../../src/package-files/package-root.js';

/** A rendered Kubernetes object, as read from YAML. */
export interface K8sObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata?: { readonly name?: string; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

const require = createRequire(join(packageRoot(), 'package.json'));

/** The KServe kinds typed in kserve-types.ts. */
const KSERVE_KINDS = new Set(['serving.kserve.io/v1alpha1 ServingRuntime', 'serving.kserve.io/v1alpha1 ClusterServingRuntime', 'serving.kserve.io/v1beta1 InferenceService']);

/** The module and type that describe an object of `apiVersion` and `kind`, or undefined when none is known. */
function typeOf(apiVersion: string, kind: string): { module: string; type: string; validates: boolean } | undefined {
  if (KSERVE_KINDS.has(`${apiVersion} ${kind}`)) return { module: './kserve-types.js', type: `I${kind}`, validates: false };
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const module =
    group === 'keda.sh'
      ? `@kubernetes-models/keda/keda.sh/${version}/${kind}`
      : group === 'monitoring.coreos.com'
        ? `@kubernetes-models/prometheus-operator/monitoring.coreos.com/${version}/${kind}`
        : group === ''
          ? `kubernetes-models/${version}/${kind}`
          : `kubernetes-models/${group}/${version}/${kind}`;
  try {
    require.resolve(module);
  } catch {
    return undefined;
  }
  return { module, type: `I${kind}`, validates: true };
}

/** What the models' runtime validation (JSON Schema, from the packages' OpenAPI) says about `object`. */
function schemaProblems(object: K8sObject): string[] {
  const found = typeOf(object.apiVersion, object.kind);
  if (found === undefined || !found.validates) return [];
  const Model = (require(found.module) as Record<string, new (data: unknown) => { validate(): void }>)[object.kind];
  if (Model === undefined) return [`${found.module} exports no ${object.kind}`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [error instanceof Error ? error.message : String(error)];
  }
}

function label(object: K8sObject): string {
  return `${object.kind}/${object.metadata?.name ?? '?'}`;
}

/**
 * What TypeScript says when each object is assigned, as an object literal, to its model's type: a missing
 * required field, a wrong type, and, where the models' schema validation lets them through, fields the
 * type does not have (a misspelt key is refused, as the API server's strict field validation would).
 */
function typeProblems(objects: readonly K8sObject[]): Map<number, string[]> {
  const lines: string[] = [];
  const owners: number[] = [];
  objects.forEach((object, index) => {
    const found = typeOf(object.apiVersion, object.kind);
    if (found === undefined) return;
    lines.push(`import type { ${found.type} as T${index} } from ${JSON.stringify(found.module)};`);
    owners.push(-1);
  });
  objects.forEach((object, index) => {
    if (typeOf(object.apiVersion, object.kind) === undefined) return;
    const text = `export const o${index}: T${index} = ${JSON.stringify(object, null, 1)};`;
    for (const line of text.split('\n')) {
      lines.push(line);
      owners.push(index);
    }
  });
  const file = join(packageRoot(), 'test', 'support', 'deploy', 'k8s-objects.generated.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  const host = ts.createCompilerHost(options);
  const source = lines.join('\n');
  const baseGetSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === file ? ts.createSourceFile(name, source, language) : baseGetSourceFile(name, language, ...rest));
  const baseFileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || baseFileExists(name);
  const program = ts.createProgram([file], options, host);
  const problems = new Map<number, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (diagnostic.file?.fileName !== file || diagnostic.start === undefined) throw new Error(`checking the objects' types: ${message}`);
    const line = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line;
    const owner = owners[line] ?? -1;
    if (owner < 0) throw new Error(`checking the objects' types: ${message}`);
    problems.set(owner, [...(problems.get(owner) ?? []), `${lines[line]?.trim() ?? ''}: ${message}`]);
  }
  return problems;
}

/**
 * Every problem found in `objects`, each named `Kind/name: problem`: an apiVersion and kind no model is
 * known for, what the models' schema validation refuses, and what their TypeScript types refuse (see
 * {@link typeProblems}). Empty when every object is valid.
 */
export function objectProblems(objects: readonly K8sObject[]): string[] {
  const types = typeProblems(objects);
  return objects.flatMap((object, index) => {
    if (typeOf(object.apiVersion, object.kind) === undefined) return [`${label(object)}: ${object.apiVersion} ${object.kind} is not a kind these checks know`];
    return [...schemaProblems(object), ...(types.get(index) ?? [])].map((problem) => `${label(object)}: ${problem}`);
  });
}
