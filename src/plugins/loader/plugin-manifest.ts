import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SluiceError } from '../../sdk/errors/index.js';
import { createSchemaValidator, type SchemaValidator } from '../../json-schema/index.js';
import type { ExtensionPoint } from '../../sdk/plugin/plugin.js';
import { parseYamlDocument } from './yaml-document.js';

/** A plugin's manifest as `schemas/plugin.schema.json` describes it. */
export interface PluginManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  /** The semver range of Sluice versions the plugin supports. */
  readonly sluice: string;
  /** The entry module relative to the plugin's folder (default `index.js`). */
  readonly main?: string;
  readonly provides: readonly { readonly point: ExtensionPoint; readonly name: string }[];
  /** The JSON Schema of the plugin's config. */
  readonly config?: Readonly<Record<string, unknown>>;
  readonly dependencies?: readonly string[];
}

/** The file a plugin folder's manifest is read from when it has no `sluice` key in package.json. */
export const MANIFEST_FILE_NAME = 'sluice-plugin.yaml';

let validator: SchemaValidator<PluginManifest> | undefined;

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Whether `folder` holds a plugin manifest (either form). */
export async function hasPluginManifest(folder: string): Promise<boolean> {
  if ((await readIfPresent(join(folder, MANIFEST_FILE_NAME))) !== undefined) return true;
  const pkg = await readIfPresent(join(folder, 'package.json'));
  if (pkg === undefined) return false;
  try {
    const parsed = JSON.parse(pkg) as { sluice?: unknown };
    return parsed.sluice !== undefined;
  } catch {
    return false;
  }
}

/**
 * Reads and validates the manifest of the plugin in `folder`: `sluice-plugin.yaml`, else the `sluice` key
 * of `package.json`. `source` names the plugin in messages (its folder or package). Throws
 * `SLUICE_PLUGIN_INVALID` naming the file and every field at fault.
 */
export async function readPluginManifest(folder: string, source: string): Promise<PluginManifest> {
  validator ??= createSchemaValidator<PluginManifest>('plugin.schema.json', 'SLUICE_PLUGIN_INVALID');
  const yaml = await readIfPresent(join(folder, MANIFEST_FILE_NAME));
  if (yaml !== undefined) return validator.validate(parseYamlDocument(yaml, `${source}: ${MANIFEST_FILE_NAME}`), `${source}: ${MANIFEST_FILE_NAME}`);
  const pkg = await readIfPresent(join(folder, 'package.json'));
  if (pkg === undefined) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `${source}: ${folder} has no ${MANIFEST_FILE_NAME} and no package.json with a \`sluice\` key`, { plugin: source });
  }
  let parsed: { sluice?: unknown };
  try {
    parsed = JSON.parse(pkg) as { sluice?: unknown };
  } catch (error) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `${source}: package.json is not valid JSON (${(error as Error).message})`, { plugin: source });
  }
  if (parsed.sluice === undefined) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `${source}: package.json has no \`sluice\` key and there is no ${MANIFEST_FILE_NAME}`, { plugin: source });
  }
  return validator.validate(parsed.sluice, `${source}: package.json#sluice`);
}
