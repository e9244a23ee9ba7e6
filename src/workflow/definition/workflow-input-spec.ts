import type { SupportedDatatype } from '../../sdk/tensor/index.js';

/** What a request input holds. */
export type WorkflowInputType = 'tensor' | 'bytes' | 'string' | 'number' | 'integer' | 'boolean' | 'list' | 'object' | 'any';

/** One declared request input (`inputs.image` in the file). */
export interface WorkflowInputSpec {
  readonly type: WorkflowInputType;
  /** For tensors: the datatype, when declared. */
  readonly datatype?: SupportedDatatype;
  /** For tensors: the shape, `-1` for any size, when declared. */
  readonly shape?: readonly number[];
  /** The request may leave it out. */
  readonly optional: boolean;
  readonly description?: string;
}
