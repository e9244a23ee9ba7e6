import { SluiceError } from '../../sdk/errors/index.js';
import type { ExtensionPoint } from '../../sdk/plugin/plugin.js';

/** The methods an extension of each point must have, and those it may have. */
const METHODS: Readonly<Record<Exclude<ExtensionPoint, 'hook'>, { readonly required: readonly string[]; readonly optional: readonly string[] }>> = {
  handler: { required: ['preprocess', 'postprocess'], optional: [] },
  'node-handler': { required: ['run'], optional: [] },
  envelope: { required: ['decode', 'encode'], optional: ['decodeEntries'] },
  executor: { required: ['load'], optional: ['batchingDefaults'] },
  auth: { required: ['authenticate'], optional: ['start', 'serving'] },
  endpoint: { required: ['handle'], optional: [] },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function malformed(plugin: string, problem: string): SluiceError {
  return new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `plugin ${plugin}: registers ${problem}`, { plugin, field: 'main' });
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

/**
 * The name of `value`, an extension a plugin hands to `register`'s context for `point`, once it has the
 * shape the SDK describes: a non-empty `name` and every method the point calls. Plugins written in
 * JavaScript are not held to the SDK's types, and a missing method would otherwise fail every request
 * that reaches it; this refuses the start instead (`SLUICE_PLUGIN_LOAD_FAILED` naming the plugin, the
 * extension and the member).
 */
export function extensionName(plugin: string, point: Exclude<ExtensionPoint, 'hook'>, value: unknown): string {
  if (!isRecord(value)) throw malformed(plugin, `${withArticle(point)} that is ${kindOf(value)}; pass an object with the ${point}'s \`name\` and methods`);
  const name = value['name'];
  if (typeof name !== 'string' || name === '') throw malformed(plugin, `${withArticle(point)} without a \`name\`; give it the name its manifest declares in \`provides\``);
  const { required, optional } = METHODS[point];
  const missing = required.find((method) => typeof value[method] !== 'function');
  if (missing !== undefined) throw malformed(plugin, `${point} \`${name}\` without a \`${missing}\` function; ${withArticle(point)} needs ${required.map((m) => `\`${m}\``).join(' and ')}`);
  const odd = optional.find((method) => value[method] !== undefined && typeof value[method] !== 'function');
  if (odd !== undefined) throw malformed(plugin, `${point} \`${name}\` whose \`${odd}\` is not a function; make it one or leave it out`);
  if (point === 'node-handler' && (!Array.isArray(value['inputs']) || !isRecord(value['outputs']))) {
    throw malformed(plugin, `node-handler \`${name}\` without \`inputs\` (a list of names) and \`outputs\` (an object by name); declare both`);
  }
  return name;
}

/** Refuses a hook listener or shutdown callback that is not a function, naming the plugin and `what`. */
export function checkCallback(plugin: string, what: string, value: unknown): void {
  if (typeof value !== 'function') throw malformed(plugin, `${what} that is ${kindOf(value)}; pass a function`);
}

/** Refuses a Nest module that is no `{module: <class>}`, or one for an API other than inference or management. */
export function checkNestModule(plugin: string, api: unknown, module: unknown): void {
  if (!isRecord(module) || typeof module['module'] !== 'function') throw malformed(plugin, 'a Nest module without a `module` class; pass `{ module: YourModule, … }`');
  if (api !== 'inference' && api !== 'management') throw malformed(plugin, `the Nest module \`${module['module'].name}\` for the API ${JSON.stringify(api)}; mount it into inference or management`);
}
