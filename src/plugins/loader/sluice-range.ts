import semver from 'semver';
import { SluiceError } from '../../sdk/errors/index.js';
import type { PluginManifest } from './plugin-manifest.js';

/** Throws `SLUICE_PLUGIN_INVALID` naming the plugin and its `sluice` field unless `sluiceVersion` is in its range. */
export function checkSluiceRange(manifest: PluginManifest, sluiceVersion: string): void {
  // semver reads a blank range as "*"; a manifest that says nothing must not claim every version.
  const range = manifest.sluice.trim() === '' ? null : semver.validRange(manifest.sluice);
  if (range === null) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${manifest.name}: \`sluice\` is not a semver range (got ${JSON.stringify(manifest.sluice)}); write one such as ">=0.1.0 <0.2.0"`, {
      plugin: manifest.name,
      field: 'sluice',
    });
  }
  if (!semver.satisfies(sluiceVersion, range, { includePrerelease: true })) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${manifest.name}@${manifest.version} supports Sluice ${manifest.sluice} (field \`sluice\`), not this server's ${sluiceVersion}; use a version of the plugin built for ${sluiceVersion}`, {
      plugin: manifest.name,
      field: 'sluice',
    });
  }
}
