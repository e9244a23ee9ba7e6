import type { LogFields } from '../logging/logger.js';
import type { ExecutionProviderName, LoadedModel } from './model-runtime.js';

/** The one log line a model version gets about its execution provider. */
export interface ProviderReport {
  readonly level: 'info' | 'warn';
  readonly message: string;
  readonly fields: LogFields;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Says which provider `loaded` runs on, on which devices, and why each provider preferred to it was not
 * used (the runtime's reasons). A warning when the first preference was not used, else information. A
 * provider outside `preference` (the `cpu` a list without it falls back to) passes over all of the list.
 */
export function providerReport(loaded: LoadedModel, preference: readonly ExecutionProviderName[], devices: readonly string[]): ProviderReport {
  const active = loaded.executionProvider;
  const at = preference.indexOf(active);
  const passedOver = at < 0 ? [...preference] : preference.slice(0, at);
  const reasons = new Map((loaded.providerSelection?.rejected ?? []).map((r) => [r.provider, oneLine(r.reason)]));
  const why = passedOver.map((provider) => `${provider}: ${reasons.get(provider) ?? 'no reason reported by the runtime'}`);
  const message = `execution provider ${active} on ${devices.join(', ')}` + (why.length > 0 ? `; not used: ${why.join('; ')}` : '');
  return {
    level: passedOver.length > 0 ? 'warn' : 'info',
    message,
    fields: {
      executionProvider: active,
      devices,
      preference,
      notUsed: Object.fromEntries(passedOver.map((provider) => [provider, reasons.get(provider) ?? null])),
    },
  };
}
