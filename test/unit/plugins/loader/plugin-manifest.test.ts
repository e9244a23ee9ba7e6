import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { hasPluginManifest, readPluginManifest } from '../../../../src/plugins/loader/plugin-manifest.js';
import { makeTempDir } from '../../../support/temp-dir.js';

describe('plugin manifests', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('reads sluice-plugin.yaml', async () => {
    await writeFile(join(dir, 'sluice-plugin.yaml'), 'name: demo\nversion: 1.0.0\nsluice: "^0.1.0"\nprovides:\n  - { point: handler, name: demo }\n');
    expect(await readPluginManifest(dir, 'plugin demo')).toEqual({ name: 'demo', version: '1.0.0', sluice: '^0.1.0', provides: [{ point: 'handler', name: 'demo' }] });
  });

  it('reads the sluice key of package.json when there is no sluice-plugin.yaml', async () => {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'x', sluice: { name: 'demo', version: '2.0.0', sluice: '*', provides: [] } }));
    expect(await hasPluginManifest(dir)).toBe(true);
    expect((await readPluginManifest(dir, 'plugin demo')).version).toBe('2.0.0');
  });

  it('names the file and every field at fault', async () => {
    await writeFile(join(dir, 'sluice-plugin.yaml'), 'name: Demo\nversion: one\nprovides: []\n');
    await expect(readPluginManifest(dir, 'plugin at demo')).rejects.toThrow(
      'plugin at demo: sluice-plugin.yaml: `sluice` is required; `name` must match pattern "^[a-z][a-z0-9-]{0,63}$" (got "Demo"); `version` must match pattern',
    );
  });

  it('says where the YAML is broken', async () => {
    await writeFile(join(dir, 'sluice-plugin.yaml'), 'name: [unclosed\n');
    await expect(readPluginManifest(dir, 'plugin at demo')).rejects.toMatchObject({ code: 'SLUICE_PLUGIN_INVALID', message: expect.stringMatching(/^plugin at demo: sluice-plugin\.yaml:\d+:\d+: invalid YAML/) as unknown });
  });

  it('refuses a folder without a manifest', async () => {
    await mkdir(join(dir, 'empty'));
    expect(await hasPluginManifest(join(dir, 'empty'))).toBe(false);
    await expect(readPluginManifest(join(dir, 'empty'), 'plugin at empty')).rejects.toThrow(/has no sluice-plugin\.yaml and no package\.json with a `sluice` key/);
  });
});
