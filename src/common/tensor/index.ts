export * from './datatype.js';
export * from './tensor.js';
