/**
 * The `inference` (Open Inference Protocol) messages as they look in JavaScript under Sluice's loader
 * options (`grpc-protos.ts`): proto field names, 64-bit integers as decimal strings, every list and map
 * present, absent sub-messages `null`.
 */

/** One parameter value; `parameter_choice` names the field that is set. */
export interface InferParameter {
  readonly parameter_choice?: 'bool_param' | 'int64_param' | 'string_param' | 'double_param' | 'uint64_param';
  readonly bool_param?: boolean;
  readonly int64_param?: string;
  readonly string_param?: string;
  readonly double_param?: number;
  readonly uint64_param?: string;
}

/** Named parameters. */
export type InferParameters = Readonly<Record<string, InferParameter>>;

/** Typed tensor elements, one list per element type. */
export interface InferTensorContents {
  readonly bool_contents: readonly boolean[];
  readonly int_contents: readonly number[];
  readonly int64_contents: readonly string[];
  readonly uint_contents: readonly number[];
  readonly uint64_contents: readonly string[];
  readonly fp32_contents: readonly number[];
  readonly fp64_contents: readonly number[];
  readonly bytes_contents: readonly Uint8Array[];
}

/** An input tensor of a request. */
export interface InferInputTensor {
  readonly name: string;
  readonly datatype: string;
  readonly shape: readonly string[];
  readonly parameters: InferParameters;
  readonly contents: InferTensorContents | null;
}

/** `ModelInferRequest`. */
export interface ModelInferRequest {
  readonly model_name: string;
  readonly model_version: string;
  readonly id: string;
  readonly parameters: InferParameters;
  readonly inputs: readonly InferInputTensor[];
  readonly outputs: readonly { readonly name: string; readonly parameters: InferParameters }[];
  readonly raw_input_contents: readonly Uint8Array[];
}

/** An output tensor of a response, as Sluice writes it (shapes as numbers). */
export interface InferOutputTensor {
  readonly name: string;
  readonly datatype: string;
  readonly shape: readonly number[];
  readonly parameters?: Readonly<Record<string, Partial<Record<'bool_param' | 'string_param' | 'int64_param', unknown>>>>;
  readonly contents?: Partial<Record<keyof InferTensorContents, readonly unknown[]>>;
}

/** `ModelInferResponse`, as Sluice writes it. */
export interface ModelInferResponse {
  readonly model_name: string;
  readonly model_version: string;
  readonly id: string;
  readonly parameters?: InferOutputTensor['parameters'];
  readonly outputs: readonly InferOutputTensor[];
  readonly raw_output_contents?: readonly Uint8Array[];
}

/** `ModelStreamInferResponse`: an answer, or the message of the error that ended one request. */
export interface ModelStreamInferResponse {
  readonly error_message: string;
  readonly infer_response?: ModelInferResponse;
}
