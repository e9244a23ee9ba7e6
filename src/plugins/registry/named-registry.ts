import { SluiceError } from '../../sdk/errors/index.js';

/**
 * Extensions of one kind by name. Duplicates are refused naming both origins; after `freeze()` nothing
 * more can be added.
 */
export class NamedRegistry<T extends { readonly name: string }> {
  private readonly entries = new Map<string, { value: T; origin: string }>();
  private frozen = false;

  /** `kind` names the extension point in messages (`handler`, `executor`). */
  constructor(private readonly kind: string) {}

  /** Adds an extension; `origin` says where it came from. */
  register(value: T, origin: string): void {
    if (this.frozen) throw new SluiceError('SLUICE_INTERNAL', `${this.kind} \`${value.name}\` from ${origin} was registered after start-up`);
    const existing = this.entries.get(value.name);
    if (existing) {
      throw new SluiceError('SLUICE_CONFIG_INVALID', `${this.kind} \`${value.name}\` is provided by both ${existing.origin} and ${origin}; remove one of them`);
    }
    this.entries.set(value.name, { value, origin });
  }

  /** Refuses further registrations. */
  freeze(): void {
    this.frozen = true;
  }

  /** The extension called `name`, or a `SLUICE_MANIFEST_INVALID` error listing the known ones. */
  get(name: string): T {
    const entry = this.entries.get(name);
    if (entry === undefined) throw new SluiceError('SLUICE_MANIFEST_INVALID', `unknown ${this.kind} \`${name}\`; known ${this.kind}s: ${this.names().join(', ')}`);
    return entry.value;
  }

  /** The extension called `name`, if registered. */
  find(name: string): T | undefined {
    return this.entries.get(name)?.value;
  }

  /** Every registered extension, in registration order. */
  all(): T[] {
    return [...this.entries.values()].map((entry) => entry.value);
  }

  /** Registered names, sorted. */
  names(): string[] {
    return [...this.entries.keys()].sort();
  }
}
