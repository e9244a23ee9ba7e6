import { requestJson, type TestServer } from './test-server.js';

/** Resolves once `model`'s default version has at least `count` requests waiting in its queue (asked over the management API). */
export async function untilQueued(t: TestServer, model: string, count: number): Promise<void> {
  for (;;) {
    const { body } = await requestJson(`${t.management}/models/${model}`);
    if ((body as [{ jobQueueStatus: { pendingRequests: number } }])[0].jobQueueStatus.pendingRequests >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
