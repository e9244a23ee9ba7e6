/**
 * Node options for worker threads that must load Sluice's TypeScript sources, as tests do: they register
 * `typescript-hooks.js` before anything else is imported on the thread.
 */
export const TYPESCRIPT_THREAD_ARGV: readonly string[] = [
  '--no-warnings=ExperimentalWarning',
  '--enable-source-maps',
  '--import',
  `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(new URL('./typescript-hooks.js', import.meta.url).href)});`)}`,
];
