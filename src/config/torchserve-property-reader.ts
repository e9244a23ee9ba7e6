import { resolve } from 'node:path';
import { Properties } from 'properties-file/parser';
import { SluiceError } from '../sdk/errors/index.js';
import { MAPPED_TORCHSERVE_KEYS, UNHONOURED_TORCHSERVE_KEYS } from './torchserve-keys.js';

/** Every key of a TorchServe `config.properties` Sluice knows, mapped or not. */
const KNOWN_KEYS: ReadonlySet<string> = new Set<string>([...MAPPED_TORCHSERVE_KEYS, ...Object.keys(UNHONOURED_TORCHSERVE_KEYS)]);

/** One property as the file gives it. */
interface PropertyLine {
  readonly value: string;
  /** 1-based line where the property starts. */
  readonly line: number;
  /** Where the value came from when not the file: the `TS_*` variable that replaced it. */
  readonly variable?: string;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known key closest to a misspelt one, when one is close enough to be the likely intent. */
function closestKey(key: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 4)) + 1;
  for (const known of KNOWN_KEYS) {
    const distance = editDistance(key.toLowerCase(), known);
    if (distance < bestDistance) {
      best = known;
      bestDistance = distance;
    }
  }
  return best;
}

function invalid(source: string, message: string, details: Readonly<Record<string, unknown>>): SluiceError {
  return new SluiceError('SLUICE_CONFIG_INVALID', `${source}: ${message}`, { source, ...details });
}

/** TorchServe's `$$NAME$$` in a value: the environment variable NAME, which must be set. */
function interpolate(source: string, key: string, property: PropertyLine, env: Readonly<Record<string, string | undefined>>): PropertyLine {
  const value = property.value.replace(/\$\$([^$]+)\$\$/g, (_match, name: string) => {
    const found = env[name];
    if (found === undefined) {
      throw invalid(source, `line ${property.line}: \`${key}\` names the environment variable ${name}, which is not set`, { key, line: property.line });
    }
    return found;
  });
  return { ...property, value };
}

/**
 * The properties of a TorchServe `config.properties`, each with its line, read with Java's syntax
 * (`key=value`, `key: value` or `key value`, `#` and `!` comments, `\` continuations and escapes).
 * Typed getters refuse a malformed value with `SLUICE_CONFIG_INVALID` naming the file, the line and
 * the key; {@link note} gathers the settings Sluice cannot honour, for one warning.
 */
export class TorchServePropertyReader {
  /** The settings Sluice goes on without, each with why. */
  readonly unhonoured: string[] = [];

  private constructor(
    /** How messages name the file. */
    readonly source: string,
    private readonly properties: ReadonlyMap<string, PropertyLine>,
    private readonly cwd: string,
  ) {}

  /**
   * Parses `text`. A key Sluice does not know (TorchServe has no such key, or it is misspelt) and a
   * key written without any value are refused, naming their lines; a key given twice is noted (the
   * last one counts, as in TorchServe). `$$NAME$$` is replaced by the variable NAME of `env`; with
   * `enable_envvars_config=true`, a `TS_<KEY>` variable replaces the file's value of a known key.
   */
  static parse(text: string, source: string, cwd: string, env: Readonly<Record<string, string | undefined>>): TorchServePropertyReader {
    const parsed = new Properties(text);
    const properties = new Map<string, PropertyLine>();
    const unknown: string[] = [];
    const repeated: string[] = [];
    for (const node of parsed.getProperties()) {
      const { key, value, startingLineNumber: line } = node;
      if (!KNOWN_KEYS.has(key)) {
        const near = closestKey(key);
        unknown.push(`\`${key}\` (line ${line}${near !== undefined ? `; did you mean \`${near}\`?` : ''})`);
        continue;
      }
      if (node.separatorChar === undefined && value === '') {
        throw invalid(source, `line ${line}: \`${key}\` has no value; write ${key}=<value>, or remove the line`, { key, line });
      }
      const earlier = properties.get(key);
      if (earlier !== undefined) repeated.push(`${key} (lines ${earlier.line} and ${line}; the last one counts)`);
      properties.set(key, { value, line });
    }
    if (unknown.length > 0) {
      throw invalid(
        source,
        `unknown TorchServe key${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}; check the spelling against TorchServe's configuration (docs/migrating-from-torchserve.md lists the keys Sluice reads)`,
        { keys: unknown },
      );
    }
    const resolved = new Map<string, PropertyLine>();
    for (const [key, property] of properties) resolved.set(key, interpolate(source, key, property, env));
    if (resolved.get('enable_envvars_config')?.value.trim() === 'true') {
      for (const key of KNOWN_KEYS) {
        const variable = `TS_${key.toUpperCase()}`;
        const fromEnv = env[variable];
        if (fromEnv !== undefined) resolved.set(key, { value: fromEnv, line: resolved.get(key)?.line ?? 0, variable });
      }
    }
    const reader = new TorchServePropertyReader(source, resolved, cwd);
    for (const entry of repeated) reader.note(entry, 'set twice');
    return reader;
  }

  /** The keys set, in the file's order. */
  keys(): string[] {
    return [...this.properties.keys()];
  }

  /** `SLUICE_CONFIG_INVALID` about `key`, naming its line (or the variable that set it). */
  fail(key: string, problem: string): SluiceError {
    const property = this.properties.get(key);
    const where = property === undefined ? '' : property.variable !== undefined ? `${property.variable}: ` : `line ${property.line}: `;
    return invalid(this.source, `${where}\`${key}\` ${problem}`, { key, ...(property !== undefined && property.variable === undefined ? { line: property.line } : {}) });
  }

  /** The trimmed value of `key`; an empty value counts as not set. */
  get(key: string): string | undefined {
    const value = this.properties.get(key)?.value.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    const lower = value.toLowerCase();
    if (lower !== 'true' && lower !== 'false') throw this.fail(key, `must be true or false, got ${JSON.stringify(value)}`);
    return lower === 'true';
  }

  integer(key: string, min: number, max: number): number | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw this.fail(key, `must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    return Number(value);
  }

  /** A path, relative ones resolved against the working directory, as TorchServe resolves them. */
  path(key: string): string | undefined {
    const value = this.get(key);
    return value === undefined ? undefined : resolve(this.cwd, value);
  }

  /** `http://host:port` → `{host, port}`; https is refused (Sluice's HTTP ports serve plain HTTP). */
  address(key: string): { host: string; port: number } | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw this.fail(key, `must be an address such as http://127.0.0.1:8080, got ${JSON.stringify(value)}`);
    }
    if (url.protocol === 'https:') {
      throw this.fail(key, `asks for HTTPS (${value}); Sluice's HTTP ports serve plain HTTP: use http:// and put a TLS-terminating proxy in front`);
    }
    if (url.protocol !== 'http:' || (url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '' || url.username !== '') {
      throw this.fail(key, `must be an address such as http://127.0.0.1:8080, got ${JSON.stringify(value)}`);
    }
    return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port === '' ? 80 : Number(url.port) };
  }

  /** Records a setting Sluice goes on without, and why. */
  note(setting: string, reason: string): void {
    this.unhonoured.push(`${setting} (${reason})`);
  }
}
