import type { Datatype } from '../../sdk/tensor/index.js';

/** What is known about one input or output of a node's target. */
export interface PortSpec {
  readonly name: string;
  /** The tensor datatype and shape, when the target declares them (models, typed workflow inputs). */
  readonly datatype?: Datatype;
  readonly shape?: readonly number[];
  /** True when the value is a list a `forEach` may fan out over; false when it is known not to be one. */
  readonly list?: boolean;
  /** False for inputs the target can do without. */
  readonly required: boolean;
}

/** The inputs and outputs of a node's target, as the catalog describes them. */
export interface NodePorts {
  readonly inputs: readonly PortSpec[];
  readonly outputs: readonly PortSpec[];
}
