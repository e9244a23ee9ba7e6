import { constructFromEvents, parseEvents, YAMLException, type Event } from 'js-yaml';
import { ProblemCollector } from '../problems/problem-collector.js';
import { workflowInvalid } from '../problems/workflow-invalid-error.js';
import { DEFAULT_PARSE_LIMITS, type WorkflowParseLimits } from './parse-limits.js';
import type { ParsedWorkflow } from './parsed-workflow.js';
import { walkYamlEvents } from './yaml-event-walker.js';
import { YamlSourceMap } from './yaml-source-map.js';

/** Options of {@link parseWorkflow}. */
export interface ParseWorkflowOptions {
  /** The name problems are reported under: a file name or URL. */
  readonly file: string;
  readonly limits?: Partial<WorkflowParseLimits>;
}

function yamlProblem(error: YAMLException, problems: ProblemCollector, text: string, maxDepth: number): void {
  const offset = error.mark?.position ?? 0;
  const clamped = Math.min(Math.max(offset, 0), text.length);
  if (error.reason.startsWith('nesting exceeded maxDepth')) {
    problems.errorAt(clamped, '', `is nested more than ${maxDepth} levels deep`, 'flatten the document; a workflow needs only a few levels');
    return;
  }
  problems.errorAt(clamped, '', `is not valid YAML: ${error.reason}`, 'fix the syntax at this position');
}

function isPlainMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a workflow file into plain data, safely: the size and nesting are bounded, the default YAML
 * schema only (no custom tags), no aliases, no duplicate keys, one document whose root is a mapping.
 * Every value's source position is kept for later problems. Throws `SLUICE_WORKFLOW_INVALID` listing
 * what is wrong, each problem with `file:line:col`.
 */
export function parseWorkflow(text: string, options: ParseWorkflowOptions): ParsedWorkflow {
  const limits = { ...DEFAULT_PARSE_LIMITS, ...options.limits };
  const { file } = options;
  const sourceMap = new YamlSourceMap();
  const problems = new ProblemCollector(file, text, sourceMap);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) {
    problems.errorAt(0, '', `is ${bytes} bytes, more than the limit of ${limits.maxBytes}`, 'a workflow only describes the graph; keep data in models and request inputs');
    throw workflowInvalid(file, problems.errors);
  }

  let events: Event[];
  try {
    events = parseEvents(text, { filename: file, maxDepth: limits.maxDepth });
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    yamlProblem(error, problems, text, limits.maxDepth);
    throw workflowInvalid(file, problems.errors);
  }
  walkYamlEvents(events, text, sourceMap, problems);
  if (problems.errors.length > 0) throw workflowInvalid(file, problems.errors);

  let document: unknown;
  try {
    [document] = constructFromEvents(events, { source: text, filename: file, maxAliases: 0 });
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    yamlProblem(error, problems, text, limits.maxDepth);
    throw workflowInvalid(file, problems.errors);
  }
  if (!isPlainMapping(document)) {
    problems.errorAt(0, '', 'is not a mapping', 'a workflow file is a YAML mapping with apiVersion, kind, metadata, inputs, nodes and outputs');
    throw workflowInvalid(file, problems.errors);
  }
  return { file, text, document, sourceMap };
}
