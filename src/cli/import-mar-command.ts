import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { importMarArchive } from '../model-store/index.js';
import { UsageError } from './cli-errors.js';
import { parseCommandArguments } from './command-flags.js';

const USAGE = 'usage: sluice import-mar <model.mar> [-o DIR] [--model-store DIR] [--handler NAME] [--config FILE]';

/**
 * `sluice import-mar <model.mar>`: converts a TorchServe model archive whose serialized file is ONNX into
 * a Sluice model directory (`model.yaml`, `labels.txt` from `index_to_name.json`), by default
 * `<model store>/<model name>`; `--handler` names the Sluice handler for an archive whose handler is not
 * one of TorchServe's base handlers Sluice maps.
 */
export async function runImportMar(args: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const { values, positionals } = parseCommandArguments(args, {
    output: { type: 'string', short: 'o' },
    'model-store': { type: 'string' },
    handler: { type: 'string' },
    config: { type: 'string' },
  });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new UsageError(USAGE);
  const output = values.output === undefined ? undefined : resolve(cwd, values.output);
  const store =
    values['model-store'] !== undefined ? resolve(cwd, values['model-store']) : loadConfig({ cwd, env, ...(values.config !== undefined ? { configFile: values.config } : {}) }).modelStore;
  const parent = output === undefined ? store : dirname(output);
  if (!existsSync(parent)) throw new UsageError(`${parent} does not exist; create it first`);
  const imported = await importMarArchive(
    resolve(cwd, file),
    parent,
    (conversion) => {
      const target = output ?? join(store, conversion.name);
      if (existsSync(target)) throw new UsageError(`${target} already exists; remove it, or import into another directory with -o DIR`);
      return target;
    },
    {},
    values.handler !== undefined ? { handler: values.handler } : {},
  );
  const labels = imported.labels === undefined ? '' : `, ${imported.labels} labels`;
  process.stdout.write(`Imported ${imported.name} ${imported.version} (handler ${imported.handler}${labels}) into ${imported.dir}\n`);
  return 0;
}
