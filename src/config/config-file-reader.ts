import { readFileSync } from 'node:fs';
import { loadAll, YAMLException } from 'js-yaml';
import { SluiceError } from '../sdk/errors/index.js';

function fail(displayName: string, problem: string, cause?: unknown): SluiceError {
  return new SluiceError('SLUICE_CONFIG_INVALID', `${displayName}: ${problem}`, { source: displayName }, { cause });
}

function parseYaml(text: string, displayName: string): unknown[] {
  try {
    return loadAll(text);
  } catch (error) {
    if (error instanceof YAMLException) {
      const where = error.mark ? `:${error.mark.line + 1}:${error.mark.column + 1}` : '';
      throw new SluiceError(
        'SLUICE_CONFIG_INVALID',
        `${displayName}${where}: invalid YAML: ${error.reason}`,
        { source: displayName, ...(error.mark ? { line: error.mark.line + 1, column: error.mark.column + 1 } : {}) },
        { cause: error },
      );
    }
    throw fail(displayName, `cannot be parsed (${error instanceof Error ? error.message : String(error)})`, error);
  }
}

/**
 * Reads a YAML configuration file (safe schema: plain data only) and returns its document, not yet
 * validated. A file without a document (empty, comments only, a bare `---`) is `{}`. Throws
 * `SLUICE_CONFIG_INVALID` with a message that starts with `displayName`, and with `line:column`
 * for YAML syntax errors.
 */
export function readConfigFile(file: string, displayName: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw fail(displayName, 'config file not found', error);
    if (code === 'EISDIR') throw fail(displayName, 'is a directory, not a config file; name the YAML file itself', error);
    if (code === 'EACCES' || code === 'EPERM') throw fail(displayName, `cannot read config file (${code}: permission denied); make it readable by the user that runs Sluice`, error);
    throw fail(displayName, `cannot read config file (${code ?? String(error)})`, error);
  }
  const documents = parseYaml(text, displayName);
  if (documents.length > 1) throw fail(displayName, `holds ${documents.length} YAML documents; expected one`);
  return documents[0] ?? {};
}
