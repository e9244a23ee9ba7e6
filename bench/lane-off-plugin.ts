import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The folder name of the plugin, under the server's configuration directory. */
const FOLDER = 'lane-off';

const MANIFEST = [
  'name: lane-off',
  'version: 1.0.0',
  'description: Mounts an empty Nest module into the inference API, which is what turns the inference lane off.',
  'sluice: "*"',
  'provides:',
  '  - { point: endpoint, name: LaneOffModule }',
  '',
].join('\n');

/** A module with nothing in it: no controller, provider, middleware or interceptor a request would meet. */
const SOURCE = [
  'class LaneOffModule {}',
  "export default { register(context) { context.nestModule('inference', { module: LaneOffModule }); } };",
  '',
].join('\n');

/** An entry of a configuration's `plugins` list. */
export interface PluginEntry {
  readonly path: string;
}

/** The `plugins` entry that loads the plugin {@link writeLaneOffPlugin} writes, relative to the configuration's directory. */
export const LANE_OFF_PLUGIN: PluginEntry = Object.freeze({ path: `./${FOLDER}` });

/**
 * Writes, under `configDir`, a plugin that mounts an empty Nest module into the inference API, and returns
 * the `plugins` entry that loads it ({@link LANE_OFF_PLUGIN}). A server with a plugin's Nest module on its
 * inference port answers every request through Fastify and Nest instead of the inference lane (the lane's
 * conditions are in `sluice-server.ts`); the module itself adds nothing a request meets, so a server with
 * it measures the lane's worth against one without.
 */
export async function writeLaneOffPlugin(configDir: string): Promise<PluginEntry> {
  const dir = join(configDir, FOLDER);
  await mkdir(dir);
  await writeFile(join(dir, 'sluice-plugin.yaml'), MANIFEST);
  await writeFile(join(dir, 'index.js'), SOURCE);
  return LANE_OFF_PLUGIN;
}
