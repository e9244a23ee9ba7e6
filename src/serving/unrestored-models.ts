import type { SnapshotModel } from '../model-store/index.js';
import { compareVersions } from './version-order.js';

/** A snapshot entry start-up could not load, and why. */
export interface UnrestoredModel {
  /** The entry as the next snapshot records it. */
  readonly entry: SnapshotModel;
  /** The load error's message. */
  readonly loadError: string;
}

/**
 * Snapshot entries that failed to load when start-up restored them (a model file briefly unreadable, a
 * download that failed). They stay in every snapshot written, so that the next start tries them again,
 * until they are unregistered or registered again.
 */
export class UnrestoredModels {
  private entries: UnrestoredModel[] = [];

  /** An independent copy: a change is planned on it, and it takes this one's place once the change is made. */
  copy(): UnrestoredModels {
    const copy = new UnrestoredModels();
    copy.entries = [...this.entries];
    return copy;
  }

  /** Keeps `entry`, which failed to load with `loadError`, for the snapshots to come. */
  keep(entry: SnapshotModel, loadError: string): void {
    this.entries.push({ entry, loadError });
  }

  /** Whether `name` (at `version`, when given) is kept. */
  has(name: string, version?: string): boolean {
    return this.entries.some((e) => matches(e.entry, name, version));
  }

  /** Stops keeping `name` (only `version`, when given); answers the versions it kept. */
  drop(name: string, version?: string): string[] {
    const dropped = this.entries.filter((e) => matches(e.entry, name, version));
    this.entries = this.entries.filter((e) => !matches(e.entry, name, version));
    return dropped.map((e) => e.entry.version);
  }

  /**
   * The kept entries as the next snapshot records them, with their load errors. A snapshot needs exactly
   * one default version per model: a model with a loaded version has its default among them
   * (`loadedDefault`), so no kept entry of it is a default; of a model that is only kept, the entry that
   * was the default still is, else its highest version.
   */
  list(loadedDefault: (name: string) => string | undefined): UnrestoredModel[] {
    const defaults = new Map<string, string>();
    for (const name of new Set(this.entries.map((e) => e.entry.name))) {
      if (loadedDefault(name) !== undefined) continue;
      const own = this.entries.map((e) => e.entry).filter((e) => e.name === name);
      const chosen = own.find((e) => e.isDefault) ?? [...own].sort((a, b) => compareVersions(a.version, b.version)).at(-1);
      if (chosen !== undefined) defaults.set(name, chosen.version);
    }
    return this.entries.map(({ entry, loadError }) => ({ entry: { ...entry, isDefault: defaults.get(entry.name) === entry.version }, loadError }));
  }

  /** The kept entries as the next snapshot records them (see {@link list}). */
  forSnapshot(loadedDefault: (name: string) => string | undefined): SnapshotModel[] {
    return this.list(loadedDefault).map((e) => e.entry);
  }
}

function matches(entry: SnapshotModel, name: string, version: string | undefined): boolean {
  return entry.name === name && (version === undefined || entry.version === version);
}
