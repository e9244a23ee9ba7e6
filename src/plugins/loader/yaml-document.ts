import { load, YAMLException } from 'js-yaml';
import { SluiceError } from '../../sdk/errors/index.js';

/** Parses one YAML document (plain data, no aliases); syntax errors become `SLUICE_PLUGIN_INVALID` with the line. */
export function parseYamlDocument(text: string, source: string): unknown {
  try {
    return load(text, { maxAliases: 0 }) ?? {};
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    const where = error.mark ? `:${error.mark.line + 1}:${error.mark.column + 1}` : '';
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `${source}${where}: invalid YAML: ${error.reason}`, { source }, { cause: error });
  }
}
