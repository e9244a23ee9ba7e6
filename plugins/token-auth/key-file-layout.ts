import type { KeyFileContent } from './token-keys.js';

/** How the key file spells its content: Sluice's own fields, or TorchServe's for scripts that read its file. */
export type KeyFileLayout = 'sluice' | 'torchserve';

/** The layouts `keyFileLayout` takes. */
export const KEY_FILE_LAYOUTS: readonly KeyFileLayout[] = ['sluice', 'torchserve'];

/**
 * The key file's JSON in `layout`. `sluice`: `{inference, management, api}`, each `{key, expiresAt}`.
 * `torchserve`: the field names TorchServe writes to its `key_file.json`: `management` and `inference`
 * each `{key, "expiration time"}`, and `API` `{key}` (with `"expiration time"` only when the API key
 * expires, which TorchServe's never does).
 */
export function keyFileJson(content: KeyFileContent, layout: KeyFileLayout): unknown {
  if (layout === 'sluice') return content;
  const entry = ({ key, expiresAt }: KeyFileContent['api']): Record<string, string> => (expiresAt === null ? { key } : { key, 'expiration time': expiresAt });
  return { management: entry(content.management), inference: entry(content.inference), API: entry(content.api) };
}
