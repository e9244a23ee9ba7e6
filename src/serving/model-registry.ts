import { SluiceError } from '../sdk/errors/index.js';
import type { ModelVersion } from './model-version.js';
import { compareVersions } from './version-order.js';

interface ModelEntry {
  readonly versions: Map<string, ModelVersion>;
  defaultVersion: string;
}

/**
 * The registered models and their versions. Pure bookkeeping: loading and unloading happen in the
 * model manager, which calls this only with versions that are ready.
 */
export class ModelRegistry {
  private readonly models = new Map<string, ModelEntry>();
  /** While start-up loads its models, a name not registered yet may still come: see {@link setStartingUp}. */
  private startingUp = false;

  /**
   * While `starting` is true, a name that is not registered is `SLUICE_SERVER_STARTING` (503, retry)
   * instead of `SLUICE_MODEL_NOT_FOUND`: a server whose ports listen before its models load tells a load
   * balancer to try another replica rather than that the model does not exist.
   */
  setStartingUp(starting: boolean): void {
    this.startingUp = starting;
  }
  private readonly observers: { added(version: ModelVersion): void; removed(version: ModelVersion): void }[] = [];

  /** Tells `observer` about every version added or removed from now on. */
  observe(observer: { added(version: ModelVersion): void; removed(version: ModelVersion): void }): void {
    this.observers.push(observer);
  }

  /** Adds a version; the first version of a model, or one added with `makeDefault`, becomes the default. */
  add(version: ModelVersion, makeDefault = false): void {
    let entry = this.models.get(version.name);
    if (entry === undefined) {
      entry = { versions: new Map(), defaultVersion: version.version };
      this.models.set(version.name, entry);
    }
    if (entry.versions.has(version.version)) {
      throw new SluiceError(
        'SLUICE_MODEL_ALREADY_REGISTERED',
        `model \`${version.name}\` version \`${version.version}\` is already registered; unregister it first or register another version`,
      );
    }
    entry.versions.set(version.version, version);
    for (const o of this.observers) o.added(version);
    if (makeDefault) entry.defaultVersion = version.version;
  }

  /** True when `name` (and `version`, if given) is registered. */
  has(name: string, version?: string): boolean {
    const entry = this.models.get(name);
    return entry !== undefined && (version === undefined || entry.versions.has(version));
  }

  /** The version asked for, or the default one; throws NOT_FOUND errors that say what exists. */
  resolve(name: string, version?: string): ModelVersion {
    const entry = this.entry(name);
    const wanted = version ?? entry.defaultVersion;
    const found = entry.versions.get(wanted);
    if (found === undefined) {
      throw new SluiceError(
        'SLUICE_MODEL_VERSION_NOT_FOUND',
        `model \`${name}\` has no version \`${wanted}\`; registered versions: ${this.versionsOf(name).map((v) => v.version).join(', ')}`,
        { model: name, version: wanted },
      );
    }
    return found;
  }

  /** The model's versions, lowest first. */
  versionsOf(name: string): ModelVersion[] {
    return [...this.entry(name).versions.values()].sort((a, b) => compareVersions(a.version, b.version));
  }

  /** The model's default version string. */
  defaultVersionOf(name: string): string {
    return this.entry(name).defaultVersion;
  }

  /** Makes `version` the default of `name`. */
  setDefault(name: string, version: string): void {
    this.resolve(name, version);
    this.entry(name).defaultVersion = version;
  }

  /**
   * Removes a version. The default version can only go when it is the last one, so that requests
   * without a version never lose their target silently.
   */
  remove(name: string, version: string): ModelVersion {
    const found = this.removable(name, version);
    const entry = this.entry(name);
    entry.versions.delete(version);
    if (entry.versions.size === 0) this.models.delete(name);
    for (const o of this.observers) o.removed(found);
    return found;
  }

  /**
   * The version {@link remove} would remove, without removing it; throws what {@link remove} would (not
   * registered, or the default of a model that has other versions).
   */
  removable(name: string, version: string): ModelVersion {
    const entry = this.entry(name);
    const found = this.resolve(name, version);
    if (entry.versions.size > 1 && entry.defaultVersion === version) {
      throw new SluiceError(
        'SLUICE_MODEL_DEFAULT_VERSION_IN_USE',
        `version \`${version}\` is the default of model \`${name}\`; set another default first (PUT /models/${name}/<version>/set-default) or unregister the whole model`,
      );
    }
    return found;
  }

  /** Model names, sorted. */
  names(): string[] {
    return [...this.models.keys()].sort();
  }

  /** Every registered version of every model. */
  all(): ModelVersion[] {
    return this.names().flatMap((name) => this.versionsOf(name));
  }

  private entry(name: string): ModelEntry {
    const entry = this.models.get(name);
    if (entry === undefined) {
      if (this.startingUp) {
        throw new SluiceError('SLUICE_SERVER_STARTING', `model \`${name}\` is not registered yet: the server is still loading its models; retry shortly, or on another replica`, { model: name });
      }
      const known = this.names();
      throw new SluiceError(
        'SLUICE_MODEL_NOT_FOUND',
        `model \`${name}\` is not registered; registered models: ${known.length > 0 ? known.join(', ') : 'none'}`,
        { model: name },
      );
    }
    return entry;
  }
}
