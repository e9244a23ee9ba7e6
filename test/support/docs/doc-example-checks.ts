import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { load } from 'js-yaml';
import { decodeOipRequest } from '../../../src/api/rest/inference/oip/oip-request-decoder.js';
import { WorkflowGraphLoader } from '../../../src/cli/workflow-graph/graph-workflow.js';
import { StoreCatalogSource } from '../../../src/cli/workflow-graph/store-catalog.js';
import { ERROR_CODES } from '../../../src/sdk/errors/index.js';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { loadConfig, type SluiceConfig } from '../../../src/config/index.js';
import type { PluginEntryConfig } from '../../../src/config/sluice-config.js';
import { loadManifest } from '../../../src/model-store/index.js';
import { validatePluginConfig } from '../../../src/plugins/loader/plugin-config.js';
import { hasPluginManifest, readPluginManifest, type PluginManifest } from '../../../src/plugins/loader/plugin-manifest.js';
import { checkSluiceRange } from '../../../src/plugins/loader/sluice-range.js';
import { SLUICE_VERSION } from '../../../src/server/version.js';
import { formatWorkflowProblem } from '../../../src/workflow/index.js';
import { createLogger, lineSink } from '../../../src/telemetry/logging/pino-logger.js';
import type { FencedBlock } from './doc-blocks.js';

/** What an example of the documentation is, and so what checks it. */
export const EXAMPLE_KINDS = [
  'config',
  'model',
  'workflow',
  'torchserve-workflow',
  'plugin-manifest',
  'oip-request',
  'oip-response',
  'error-answer',
  'log-line',
  'json',
] as const;
export type ExampleKind = (typeof EXAMPLE_KINDS)[number];

/** The kinds a fragment may be of: a part of one of these files, checked for the keys it uses. */
export const FRAGMENT_SCHEMAS: Readonly<Record<string, string>> = {
  config: 'config.schema.json',
  model: 'model.schema.json',
  workflow: 'workflow.schema.json',
  'plugin-manifest': 'plugin.schema.json',
};

const root = packageRoot();

function schemaKeys(schema: string): Set<string> {
  const document = JSON.parse(readFileSync(join(root, 'schemas', schema), 'utf8')) as { properties?: Record<string, unknown> };
  return new Set(Object.keys(document.properties ?? {}));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A block's document, parsed as its language says; throws what the parser says. */
export function parseBlock(block: FencedBlock): unknown {
  return block.language === 'json' ? (JSON.parse(block.text) as unknown) : load(block.text);
}

/** The file a YAML block says it shows, by its first line (`# model.yaml`). */
const NAMED_FILES: Readonly<Record<string, ExampleKind>> = { 'sluice.yaml': 'config', 'model.yaml': 'model', 'sluice-plugin.yaml': 'plugin-manifest' };

/** The kind of a block without a marker, told by what it holds; undefined when it holds nothing recognisable. */
export function recogniseBlock(block: FencedBlock): ExampleKind | undefined {
  const named = /^#\s*([\w.-]+)\s*$/.exec(block.text.split('\n')[0] ?? '')?.[1];
  if (block.language !== 'json' && named !== undefined && NAMED_FILES[named] !== undefined) return NAMED_FILES[named];
  let document: unknown;
  try {
    document = parseBlock(block);
  } catch {
    return undefined;
  }
  if (!isRecord(document)) return undefined;
  if (block.language === 'json') {
    if ('errorCode' in document) return 'error-answer';
    if (typeof document['level'] === 'string' && typeof document['msg'] === 'string') return 'log-line';
    if (Array.isArray(document['inputs'])) return 'oip-request';
    if (Array.isArray(document['outputs']) && 'model_name' in document) return 'oip-response';
    return undefined;
  }
  if (document['apiVersion'] === 'sluice/v1') return 'workflow';
  if ('models' in document && 'dag' in document) return 'torchserve-workflow';
  if ('name' in document && 'model' in document) return 'model';
  const configKeys = schemaKeys('config.schema.json');
  return Object.keys(document).every((key) => configKeys.has(key)) ? 'config' : undefined;
}

/** The built-in plugins' and example plugins' manifests, by the names configuration entries give them. */
function knownPluginFolders(): { byName: Map<string, string>; byPackage: Map<string, string> } {
  const byName = new Map<string, string>();
  const byPackage = new Map<string, string>();
  for (const entry of readdirSync(join(root, 'plugins'), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const manifest = load(readFileSync(join(root, 'plugins', entry.name, 'sluice-plugin.yaml'), 'utf8')) as { name: string };
    byName.set(manifest.name, join(root, 'plugins', entry.name));
  }
  for (const entry of readdirSync(join(root, 'examples'), { withFileTypes: true })) {
    if (!entry.isDirectory() || !existsSync(join(root, 'examples', entry.name, 'package.json'))) continue;
    const pkg = JSON.parse(readFileSync(join(root, 'examples', entry.name, 'package.json'), 'utf8')) as { name: string };
    byPackage.set(pkg.name, join(root, 'examples', entry.name));
  }
  return { byName, byPackage };
}

/**
 * Checks documentation examples with Sluice's own loaders: a config through the config loader (and each
 * plugin's settings against its manifest), a `model.yaml` through the manifest loader (with stand-ins for
 * the files it names), a workflow or TorchServe spec as registration checks it against the demo models
 * and the built-in node handlers, a plugin manifest through the plugin loader's checks, an OIP request
 * through its decoder, answers and log lines for their shape. Each check throws what is wrong.
 */
export class DocExampleChecker {
  private readonly plugins = knownPluginFolders();
  private workflows: WorkflowGraphLoader | undefined;
  private count = 0;

  constructor(private readonly tempDir: string) {}

  async check(kind: ExampleKind, block: FencedBlock): Promise<void> {
    switch (kind) {
      case 'config':
        return this.checkConfig(block.text);
      case 'model':
        return this.checkModel(block.text);
      case 'workflow':
      case 'torchserve-workflow':
        return this.checkWorkflow(block.text);
      case 'plugin-manifest':
        return this.checkPluginManifest(block.text);
      case 'oip-request':
        decodeOipRequest(parseBlock(block));
        return;
      case 'oip-response':
        checkOipResponse(parseBlock(block));
        return;
      case 'error-answer':
        checkErrorAnswer(parseBlock(block));
        return;
      case 'log-line':
        checkLogLine(parseBlock(block));
        return;
      case 'json':
        JSON.parse(block.text);
        return;
    }
  }

  /** A fragment: a document of its language whose keys are keys of the file it is part of. */
  checkFragment(of: string, block: FencedBlock): void {
    const schema = FRAGMENT_SCHEMAS[of];
    if (schema === undefined) throw new Error(`a fragment is of ${Object.keys(FRAGMENT_SCHEMAS).join(', ')}, not ${of}`);
    const document = parseBlock(block);
    if (!isRecord(document)) throw new Error(`a ${of} fragment is a mapping of its keys`);
    const keys = schemaKeys(schema);
    const unknown = Object.keys(document).filter((key) => !keys.has(key));
    if (unknown.length > 0) throw new Error(`${unknown.join(', ')}: not keys of ${schema}`);
  }

  private async scratch(name: string, text: string): Promise<string> {
    this.count += 1;
    const dir = join(this.tempDir, `example-${this.count}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, name), text);
    return dir;
  }

  private async checkConfig(text: string): Promise<void> {
    const dir = await this.scratch('sluice.yaml', text);
    const config = loadConfig({ configFile: join(dir, 'sluice.yaml'), cwd: dir, env: {} });
    for (const entry of config.plugins) {
      if (entry.config === undefined) continue;
      const manifest = await this.pluginManifestOf(entry);
      validatePluginConfig(manifest, entry.config);
    }
  }

  private async pluginManifestOf(entry: PluginEntryConfig): Promise<PluginManifest> {
    const folder = entry.name !== undefined ? this.plugins.byName.get(entry.name) : entry.package !== undefined ? this.plugins.byPackage.get(entry.package) : undefined;
    const label = entry.name ?? entry.package ?? entry.path ?? '?';
    if (folder === undefined || !(await hasPluginManifest(folder))) throw new Error(`plugin ${label} is neither built in nor an example here, so its config cannot be checked`);
    return readPluginManifest(folder, label);
  }

  private async checkModel(text: string): Promise<void> {
    const dir = await this.scratch('model.yaml', text);
    const document = load(text) as Record<string, unknown>;
    // The files a manifest names are its own business: stand-ins let the loader check everything else.
    for (const key of ['model', 'labels']) {
      const file = document[key];
      if (typeof file !== 'string' || file.startsWith('npm:')) continue;
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), '');
    }
    await loadManifest(dir);
  }

  private async checkWorkflow(text: string): Promise<void> {
    const loader = this.workflowLoader();
    const { warnings } = await loader.load({ text, name: 'example.yaml' });
    if (warnings.length > 0) throw new Error(`loads with warnings:\n${warnings.map(formatWorkflowProblem).join('\n')}`);
    if (loader.warnings.length > 0) throw new Error(loader.warnings.join('\n'));
  }

  /** A loader over the repository's model store and example workflows, with the built-in plugins. */
  private workflowLoader(): WorkflowGraphLoader {
    if (this.workflows === undefined) {
      const config: SluiceConfig = loadConfig({ cwd: root, env: {}, overrides: { modelStore: join(root, 'model-store'), workflowStore: join(root, 'workflows') } });
      const store = new StoreCatalogSource({ config, configDirectory: root, logger: createLogger('silent', lineSink(() => undefined)) });
      this.workflows = new WorkflowGraphLoader(store, config);
    }
    return this.workflows;
  }

  private async checkPluginManifest(text: string): Promise<void> {
    const dir = await this.scratch('sluice-plugin.yaml', text);
    const manifest = await readPluginManifest(dir, 'example');
    checkSluiceRange(manifest, SLUICE_VERSION);
    validatePluginConfig(manifest, {});
  }
}

function checkOipResponse(document: unknown): void {
  if (!isRecord(document) || typeof document['model_name'] !== 'string' || !Array.isArray(document['outputs'])) {
    throw new Error('an OIP response is an object with a "model_name" string and an "outputs" list');
  }
  for (const output of document['outputs']) {
    const ok = isRecord(output) && typeof output['name'] === 'string' && typeof output['datatype'] === 'string' && Array.isArray(output['shape']) && Array.isArray(output['data']);
    if (!ok) throw new Error(`every output has "name", "datatype", "shape" and "data": ${JSON.stringify(output)}`);
  }
}

function checkErrorAnswer(document: unknown): void {
  if (!isRecord(document) || typeof document['errorCode'] !== 'string' || !(document['errorCode'] in ERROR_CODES)) {
    throw new Error('an error answer carries an "errorCode" of docs/errors.md');
  }
  const torchServe = typeof document['code'] === 'number' && typeof document['type'] === 'string' && typeof document['message'] === 'string';
  const kserve = typeof document['error'] === 'string';
  if (torchServe === kserve) throw new Error('an error answer is TorchServe\'s {code, type, message, errorCode} or KServe\'s {error, errorCode}');
}

function checkLogLine(document: unknown): void {
  if (!isRecord(document) || typeof document['level'] !== 'string' || typeof document['msg'] !== 'string') throw new Error('a log line has a "level" and a "msg"');
}
