import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../../src/package-files/package-root.js';

const root = packageRoot();

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Every module specifier a file imports (static, dynamic and re-exports). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
}

/** Repository-relative paths of a file's relative imports. */
function localImports(file: string): string[] {
  return importsOf(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(root, resolve(root, dirname(file), specifier)));
}

/**
 * The contract layer: the SDK, and the few concepts the core shares beside it (the request budget, where partial answers go,
 * JSON-Schema validation, where the package's files lie, long timers). It imports nothing else in src.
 */
const CONTRACT_LAYER = ['src/sdk', 'src/budget', 'src/partials', 'src/json-schema', 'src/package-files', 'src/timers'];

function inContractLayer(target: string): boolean {
  return CONTRACT_LAYER.some((folder) => target.startsWith(`${folder}/`));
}

/** The workflow DSL: all of src/workflow but serving/, the part that runs workflows over the serving core. */
function workflowDslFiles(): string[] {
  return sourceFiles('src/workflow').filter((file) => !file.startsWith('src/workflow/serving/'));
}

describe('import boundaries', () => {
  it('lets only src/runtime/onnx import onnxruntime-node', () => {
    const offenders = [...sourceFiles('src'), ...sourceFiles('plugins')].filter(
      (file) => !file.startsWith('src/runtime/onnx/') && importsOf(file).some((s) => s.startsWith('onnxruntime')),
    );
    expect(offenders).toEqual([]);
  });

  it('lets only src/telemetry import the OpenTelemetry SDK and exporters', () => {
    const offenders = [...sourceFiles('src'), ...sourceFiles('plugins')].filter(
      (file) => !file.startsWith('src/telemetry/') && importsOf(file).some((s) => /^@opentelemetry\/(sdk-|exporter-|resources)/.test(s)),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the contract layer free of imports from the rest of src', () => {
    const offenders = CONTRACT_LAYER.flatMap((folder) => sourceFiles(folder)).flatMap((file) =>
      localImports(file)
        .filter((target) => !inContractLayer(target))
        .map((target) => `${file} → ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the SDK free of imports from the rest of src', () => {
    const offenders = sourceFiles('src/sdk').flatMap((file) =>
      localImports(file)
        .filter((target) => !target.startsWith('src/sdk/'))
        .map((target) => `${file} → ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('builds the built-in plugins only against the SDK', () => {
    const offenders = sourceFiles('plugins').flatMap((file) =>
      localImports(file)
        .filter((target) => target.startsWith('src/') && !target.startsWith('src/sdk/'))
        .map((target) => `${file} → ${target}`),
    );
    expect(sourceFiles('plugins').length).toBeGreaterThan(0);
    expect(offenders).toEqual([]);
  });

  it('keeps the scheduler free of HTTP and of the runtime implementation', () => {
    const offenders = sourceFiles('src/batching').flatMap((file) =>
      [...importsOf(file).filter((s) => /fastify|@nestjs|onnxruntime/.test(s)), ...localImports(file).filter((t) => t.startsWith('src/api/') || t.startsWith('src/runtime/onnx/'))].map(
        (target) => `${file} → ${target}`,
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the workflow module on the contract layer, but for serving/, which runs workflows in the serving core', () => {
    const offenders = workflowDslFiles().flatMap((file) =>
      localImports(file)
        .filter((target) => !target.startsWith('src/workflow/') && !inContractLayer(target))
        .map((target) => `${file} → ${target}`),
    );
    expect(workflowDslFiles().length).toBeGreaterThan(0);
    expect(offenders).toEqual([]);
  });

  it('lets the APIs reach the serving core only through its narrow interfaces, but for the modules that wire it', () => {
    const wiring = /(\.module\.ts|\/grpc-servers\.ts|\/api-description\.controller\.ts)$/;
    const offenders = sourceFiles('src/api').filter((file) => !wiring.test(file) && localImports(file).includes('src/serving/serving-core.js'));
    expect(offenders).toEqual([]);
  });

  it('keeps the workflow code of the serving core in src/workflow/serving', () => {
    // A folder of workflow code under src/serving (the interfaces of the core that name workflows are no such folder).
    const outside = sourceFiles('src/serving').filter((file) => dirname(file).split('/').some((folder) => /workflow/i.test(folder)));
    expect(sourceFiles('src/workflow/serving').length).toBeGreaterThan(0);
    expect(outside).toEqual([]);
  });
});
