export * from './datatype.js';
export * from './tensor.js';
export * from './float16.js';
export * from './json-tensor-codec.js';
export * from './raw-tensor-codec.js';
export * from './fp16-inputs.js';
export * from './encoded-values-limit.js';
