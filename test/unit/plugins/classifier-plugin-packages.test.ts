import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { load } from 'js-yaml';
import imageClassifierPlugin from '../../../plugins/image-classifier/index.js';
import textClassifierPlugin from '../../../plugins/text-classifier/index.js';
import { createSchemaValidator } from '../../../src/json-schema/index.js';
import { packageRoot } from '../../../src/package-files/package-root.js';
import type { Handler, PluginContext, SluicePlugin } from '../../../src/sdk/index.js';
import { silentLogger } from '../../support/handlers/classifier-fixtures.js';

interface PluginManifest {
  readonly name: string;
  readonly version: string;
  readonly sluice: string;
  readonly main: string;
  readonly provides: readonly { readonly point: string; readonly name: string }[];
}

const validator = createSchemaValidator<PluginManifest>('plugin.schema.json', 'SLUICE_PLUGIN_INVALID');

async function manifestOf(folder: string): Promise<PluginManifest> {
  const file = join(packageRoot(), 'plugins', folder, 'sluice-plugin.yaml');
  return validator.validate(load(await readFile(file, 'utf8')), file);
}

/** What a plugin registers, by extension point; every other registration method throws. */
async function registrations(plugin: SluicePlugin): Promise<{ point: string; name: string }[]> {
  const registered: { point: string; name: string }[] = [];
  const unexpected = (): never => {
    throw new Error('registered something other than a handler');
  };
  const context: PluginContext = {
    name: 'under-test',
    version: '0.1.0',
    sluiceVersion: '0.1.0',
    config: {},
    directory: packageRoot(),
    configDirectory: packageRoot(),
    logger: silentLogger,
    handler: (handler: Handler) => registered.push({ point: 'handler', name: handler.name }),
    nodeHandler: unexpected,
    envelope: unexpected,
    executor: unexpected,
    auth: unexpected,
    endpoint: unexpected,
    nestModule: unexpected,
    hook: unexpected,
    onShutdown: unexpected,
  };
  await plugin.register(context);
  return registered;
}

describe.each([
  ['image-classifier', imageClassifierPlugin],
  ['text-classifier', textClassifierPlugin],
])('the %s plugin package', (folder, plugin) => {
  it('has a manifest the plugin schema accepts, for Sluice 0.1', async () => {
    expect(await manifestOf(folder)).toMatchObject({ name: folder, version: '0.1.0', sluice: '>=0.1.0 <0.2.0', main: 'index.js' });
  });

  it('registers exactly what its manifest provides', async () => {
    const manifest = await manifestOf(folder);
    expect(await registrations(plugin)).toEqual(manifest.provides);
  });

  it('names its package after the plugin', async () => {
    const pkg = JSON.parse(await readFile(join(packageRoot(), 'plugins', folder, 'package.json'), 'utf8')) as { name: string; version: string };
    expect([pkg.name, pkg.version]).toEqual([`@sluice/${folder}`, '0.1.0']);
  });
});
