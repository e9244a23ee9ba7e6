import { type EnvironmentContext, type JestEnvironmentConfig } from '@jest/environment';
import { TestEnvironment } from 'jest-environment-node';

/**
 * Jest's Node environment with every typed-array constructor taken from the host realm.
 *
 * Jest runs tests in a separate VM context, but onnxruntime-node's native binding creates output
 * tensors from host-realm typed arrays and hands them to onnxruntime-common's `Tensor`, which checks
 * `instanceof Float32Array` (etc.) against the test realm and throws. Jest already shares `Uint8Array`
 * and `ArrayBuffer` this way; this shares the rest. `jest.config.js` makes it every project's environment.
 */
export default class OnnxTestEnvironment extends TestEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    Object.assign(this.global, {
      Int8Array,
      Uint8Array,
      Uint8ClampedArray,
      Int16Array,
      Uint16Array,
      Int32Array,
      Uint32Array,
      Float32Array,
      Float64Array,
      BigInt64Array,
      BigUint64Array,
      ArrayBuffer,
      DataView,
    });
  }
}
