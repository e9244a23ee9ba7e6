import type { YamlSourceMap } from './yaml-source-map.js';

/** A workflow file read into plain data, with the source position of every value. Not yet validated. */
export interface ParsedWorkflow {
  /** The name the file is reported under (a file name or URL). */
  readonly file: string;
  readonly text: string;
  /** The document: a plain object built from safe YAML (strings, numbers, booleans, null, lists, mappings). */
  readonly document: Readonly<Record<string, unknown>>;
  readonly sourceMap: YamlSourceMap;
}
