// A model handler: named flower measurements in, the species and its probability out.

const FIELDS = ['sepal_length', 'sepal_width', 'petal_length', 'petal_width'];

/**
 * A client mistake. Its `code` is a Sluice error code, so Sluice answers with that code's status (400)
 * and this message; any other error is a 500 `SLUICE_PLUGIN_FAILED` naming the plugin.
 */
export class BadFlower extends Error {
  constructor(message) {
    super(message);
    this.name = 'BadFlower';
    this.code = 'SLUICE_REQUEST_INVALID';
  }
}

function measurements(body) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadFlower(`send a JSON object with ${FIELDS.join(', ')} in centimetres`);
  }
  return FIELDS.map((field) => {
    const value = body[field];
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new BadFlower(`\`${field}\` must be a number of centimetres`);
    return value;
  });
}

export const flowerHandler = {
  name: 'starter-flower',
  async preprocess(requests, context) {
    const input = context.model.inputs[0];
    return requests.map((request) => ({
      inputs: [{ name: input.name, datatype: 'FP32', shape: [1, FIELDS.length], data: Float32Array.from(measurements(request.body)) }],
    }));
  },
  async postprocess(results, context) {
    const labels = context.model.labels ?? [];
    return results.map(({ outputs }) => {
      const scores = outputs.find((t) => t.name === 'probabilities') ?? outputs[0];
      let best = 0;
      for (let i = 1; i < scores.data.length; i += 1) if (scores.data[i] > scores.data[best]) best = i;
      return { species: labels[best] ?? String(best), probability: Number(scores.data[best].toFixed(4)) };
    });
  },
};
