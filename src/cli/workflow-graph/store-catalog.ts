import { join } from 'node:path';
import { isSluiceError } from '../../sdk/errors/index.js';
import type { Logger } from '../../sdk/logging/logger.js';
import { packageRoot } from '../../package-files/package-root.js';
import type { TensorSpec } from '../../sdk/tensor/index.js';
import type { SluiceConfig } from '../../config/index.js';
import { loadManifest, loadModelDirectory, scanModelStore, type ModelManifest } from '../../model-store/index.js';
import { loadPlugins } from '../../plugins/loader/plugin-loader.js';
import type { ModelDescription } from '../../sdk/index.js';
import { OnnxRuntime } from '../../runtime/onnx/index.js';
import { SLUICE_VERSION } from '../../server/version.js';
import { resolveTensorSpecs } from '../../serving/spec-resolution.js';
import { compareVersions } from '../../serving/version-order.js';
import type { HandlerDescription } from '../../workflow/index.js';

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Options of {@link StoreCatalogSource}. */
export interface StoreCatalogSourceOptions {
  readonly config: SluiceConfig;
  /** Where the configuration's relative plugin paths resolve: the config file's directory. */
  readonly configDirectory: string;
  /** Told what plugins say while they load (a quiet logger suits a command that prints a graph). */
  readonly logger: Logger;
}

/**
 * What a server started with `config` would register, read without starting one: the models of its model
 * store (`models: all`, or the listed store names; archives are not unpacked), with their tensor specs, and
 * the node handlers of its plugins. What a workflow is validated against when it is drawn or its examples
 * checked; each part is read once, on first use.
 */
export class StoreCatalogSource {
  private manifests: Promise<readonly ModelManifest[]> | undefined;
  private handlerList: Promise<readonly HandlerDescription[]> | undefined;
  private readonly described = new Map<string, Promise<readonly ModelDescription[]>>();
  /** What could not be read, as sentences: a command prints them beside its own answer. */
  readonly warnings: string[] = [];

  constructor(private readonly options: StoreCatalogSourceOptions) {}

  /** Every model manifest of the store that start-up would load, in store order; those that cannot be read are left out with a warning. */
  storeManifests(): Promise<readonly ModelManifest[]> {
    this.manifests ??= this.readManifests();
    return this.manifests;
  }

  /**
   * The versions of the model `name`, highest (the default) first, with the tensor specs the model file
   * and manifest give them (the file is opened on the CPU for those it does not declare). A version whose
   * file cannot be opened is left out with a warning.
   */
  models(name: string): Promise<readonly ModelDescription[]> {
    let described = this.described.get(name);
    if (described === undefined) {
      described = this.describe(name);
      this.described.set(name, described);
    }
    return described;
  }

  /** The node handlers the configured plugins register (the built-in ones included). */
  handlers(): Promise<readonly HandlerDescription[]> {
    this.handlerList ??= this.readHandlers();
    return this.handlerList;
  }

  private async readManifests(): Promise<ModelManifest[]> {
    const { config } = this.options;
    const selected = config.models === 'all' ? undefined : new Set(config.models);
    const manifests: ModelManifest[] = [];
    for (const entry of await scanModelStore(config.modelStore)) {
      if (selected !== undefined && !selected.has(entry.storeName)) continue;
      if (entry.source === 'archive') continue;
      try {
        const defaults = { workers: config.defaultWorkers };
        manifests.push(await (entry.source === 'model-file' ? loadModelDirectory(entry.path, entry.storeName, defaults) : loadManifest(entry.path, defaults)));
      } catch (error) {
        this.warnings.push(`model-store entry ${entry.storeName} is left out: ${reasonOf(error)}`);
      }
    }
    return manifests;
  }

  private async describe(name: string): Promise<ModelDescription[]> {
    const versions = (await this.storeManifests()).filter((manifest) => manifest.name === name).sort((a, b) => compareVersions(b.version, a.version));
    const described: ModelDescription[] = [];
    for (const manifest of versions) {
      try {
        const { inputs, outputs } = await tensorSpecsOf(manifest);
        described.push({ name, version: manifest.version, inputs, outputs, directory: manifest.baseDir });
      } catch (error) {
        this.warnings.push(`model ${name}@${manifest.version} is left out: ${isSluiceError(error) ? error.message : reasonOf(error)}`);
      }
    }
    return described;
  }

  private async readHandlers(): Promise<HandlerDescription[]> {
    const { config, configDirectory, logger } = this.options;
    const root = packageRoot();
    const plugins = await loadPlugins({
      pluginsDir: join(root, 'plugins'),
      packageRoot: root,
      entries: config.plugins,
      cwd: configDirectory,
      sluiceVersion: SLUICE_VERSION,
      logger,
      loadTimeoutMs: config.pluginLoadTimeoutMs,
    });
    try {
      return plugins.nodeHandlers.map(({ value }) => ({ name: value.name, inputs: value.inputs, outputs: value.outputs }));
    } finally {
      await plugins.shutdown();
    }
  }
}

/** The tensor specs of a model version: the manifest's when it declares both lists, else read from the model file. */
async function tensorSpecsOf(manifest: ModelManifest): Promise<{ inputs: readonly TensorSpec[]; outputs: readonly TensorSpec[] }> {
  if (manifest.inputs !== undefined && manifest.outputs !== undefined) return { inputs: manifest.inputs, outputs: manifest.outputs };
  // Only the specs are read: no optimisation, one thread.
  const loaded = await new OnnxRuntime().loadHere(manifest.modelPath, { executionProviders: ['cpu'], graphOptimizationLevel: 'disabled', intraOpNumThreads: 1 });
  try {
    return {
      inputs: resolveTensorSpecs('input', manifest.manifestPath, manifest.inputs, loaded.inputs),
      outputs: resolveTensorSpecs('output', manifest.manifestPath, manifest.outputs, loaded.outputs),
    };
  } finally {
    await loaded.release();
  }
}
