import { Ajv, type ValidateFunction } from 'ajv';
import { SluiceError } from '../../sdk/errors/index.js';
import { schemaProblems } from '../../json-schema/index.js';
import type { PluginManifest } from './plugin-manifest.js';

/**
 * The plugin's settings checked against the JSON Schema in its manifest, with the schema's defaults
 * filled in (on a copy). A plugin without a `config` schema takes no settings. Throws
 * `SLUICE_PLUGIN_INVALID` naming the plugin and each key at fault.
 */
export function validatePluginConfig(manifest: PluginManifest, config: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const copy = structuredClone(config) as Record<string, unknown>;
  if (manifest.config === undefined) {
    const keys = Object.keys(copy);
    if (keys.length === 0) return copy;
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${manifest.name}: takes no config, but \`config\` sets ${keys.map((k) => `\`${k}\``).join(', ')}; remove it`, {
      plugin: manifest.name,
      field: 'config',
    });
  }
  let check: ValidateFunction;
  try {
    check = new Ajv({ allErrors: true, verbose: true, strict: false, useDefaults: true }).compile(manifest.config);
  } catch (error) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${manifest.name}: its manifest's \`config\` is not a valid JSON Schema (${(error as Error).message})`, {
      plugin: manifest.name,
      field: 'config',
    });
  }
  // An async schema's check answers a promise (always truthy), so the settings would pass unchecked and
  // its rejection would end the process.
  if ((check as { $async?: boolean }).$async === true) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${manifest.name}: its manifest's \`config\` is an asynchronous JSON Schema (\`$async: true\`), which Sluice cannot check at start-up; remove \`$async\``, {
      plugin: manifest.name,
      field: 'config',
    });
  }
  if (check(copy)) return copy;
  const problems = schemaProblems(check.errors).map((p) => p.replace(/`\(top level\)`/, 'the config'));
  throw new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${manifest.name}: config: ${problems.join('; ')}`, { plugin: manifest.name, field: 'config', problems });
}
