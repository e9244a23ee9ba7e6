// An endpoint and a hook working together: the hook counts inferences, the endpoint reports them.

/** Inference counts per model, fed by the postInfer hook. */
export class InferenceCounter {
  constructor() {
    this.counts = new Map();
  }

  /** The postInfer hook. */
  record(event) {
    const key = event.model.name;
    const entry = this.counts.get(key) ?? { ok: 0, failed: 0 };
    if (event.ok) entry.ok += 1;
    else entry.failed += 1;
    this.counts.set(key, entry);
  }

  /** `GET /starter/stats` on the inference API. */
  endpoint() {
    return {
      name: 'stats',
      api: 'inference',
      method: 'GET',
      path: '/starter/stats',
      handle: async (_request, context) => ({
        body: {
          greeting: context.config.greeting,
          models: context.models().map((m) => `${m.name}@${m.version}`),
          inferences: Object.fromEntries(this.counts),
        },
      }),
    };
  }
}
