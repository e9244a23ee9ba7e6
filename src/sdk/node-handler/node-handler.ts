import type { Context } from '@opentelemetry/api';
import type { Logger } from '../logging/logger.js';

/**
 * A value passed between workflow nodes: a tensor, raw bytes, JSON data (numbers, strings, booleans,
 * null, objects), or a list of values (what `forEach` fans out over and collects into).
 */
export type WorkflowValue = unknown;

/** What a workflow handler node is given besides its inputs. */
export interface NodeHandlerContext {
  /** The workflow and node this call runs for (`ocr`, `crop`). */
  readonly workflow: string;
  readonly node: string;
  readonly logger: Logger;
  /** Aborted when the request's deadline passes or its client goes away; long handlers should stop. */
  readonly signal: AbortSignal;
  /** The handler's own settings (from the plugin's configuration). */
  readonly config: Readonly<Record<string, unknown>>;
  /**
   * The trace context of the node (its span) when the request is traced: pass it as the parent of spans
   * the handler starts, or to what it calls, to keep them in the request's trace. Absent when not traced.
   */
  readonly traceContext?: Context;
}

/**
 * A function node of a workflow (`handler: plugin/name`): named inputs in, named outputs out. Handlers come
 * from plugins; a workflow refers to them by their full name (`ocr/crop-lines`).
 */
export interface NodeHandler {
  /** The full name workflows use: `<plugin>/<name>`. */
  readonly name: string;
  /** The input names it reads, so workflows can be checked before they run. */
  readonly inputs: readonly string[];
  /** The output names it produces; `list: true` marks outputs a `forEach` may fan out over. */
  readonly outputs: Readonly<Record<string, { readonly list?: boolean; readonly description?: string }>>;
  /** Runs the node. Throwing fails the node (and its retries, timeout and `onError` apply). */
  run(inputs: Readonly<Record<string, WorkflowValue>>, context: NodeHandlerContext): Promise<Readonly<Record<string, WorkflowValue>>>;
}
