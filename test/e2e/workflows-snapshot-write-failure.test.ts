import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** A workflow named `look` of version `version`, answering the iris label of its measurements. */
function lookWorkflow(version: string): string {
  return `apiVersion: sluice/v1
kind: Workflow
metadata: { name: look, version: "${version}" }
inputs: { measurements: { datatype: FP32, shape: [-1, 4] } }
nodes:
  classify: { model: iris, inputs: { input: $request.measurements } }
outputs: { label: classify.label }
`;
}

/** What the management API answers when the snapshot of a change cannot be written. */
function notWritten(file: string): Record<string, unknown> {
  return {
    status: 500,
    body: {
      errorCode: 'SLUICE_SNAPSHOT_INVALID',
      message: expect.stringMatching(new RegExp(`^the change was not made: ${file}: cannot write the snapshot \\(EISDIR: `)) as unknown,
    },
  };
}

describe('a workflow change whose snapshot cannot be written', () => {
  let server: TestServer;
  let file: string;
  const management = (path: string, method = 'GET'): ReturnType<typeof requestJson> => requestJson(`${server.management}${path}`, { method });
  const run = (): ReturnType<typeof requestJson> => requestJson(`${server.inference}/wfpredict/look`, { method: 'POST', json: { measurements: [[5.1, 3.5, 1.4, 0.2]] } });
  /** Puts a directory in the snapshot's place: the rename of a written snapshot over it fails. */
  const block = async (): Promise<void> => {
    await rm(file, { recursive: true, force: true });
    await mkdir(join(file, 'in-the-way'), { recursive: true });
  };
  const unblock = (): Promise<void> => rm(file, { recursive: true, force: true });
  const versionOfLook = async (): Promise<unknown> => ((await management('/workflows/look')).body as readonly { workflowVersion?: unknown }[])[0]?.workflowVersion;

  beforeAll(async () => {
    server = await startTestServer({
      demoModels: ['iris'],
      config: { workflows: [] },
      prepare: async (_store, dir) => {
        await writeWorkflowFile(dir, 'look-1.yaml', lookWorkflow('1'));
        await writeWorkflowFile(dir, 'look-2.yaml', lookWorkflow('2'));
      },
    });
    file = join(server.dir, 'snapshot.json');
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(block);
  afterEach(unblock);

  it('registering answers SLUICE_SNAPSHOT_INVALID and leaves the workflow unregistered', async () => {
    expect(await management('/workflows?url=look-1.yaml', 'POST')).toMatchObject(notWritten(file));
    expect(await management('/workflows/look')).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_WORKFLOW_NOT_FOUND' } });
  });

  it('replacing answers SLUICE_SNAPSHOT_INVALID and leaves the workflow it would replace serving', async () => {
    await unblock();
    expect(await management('/workflows?url=look-1.yaml', 'POST')).toMatchObject({ status: 200 });
    await block();
    try {
      expect(await management('/workflows?url=look-2.yaml', 'POST')).toMatchObject(notWritten(file));
      expect(await versionOfLook()).toBe('1');
      expect(await run()).toEqual(expect.objectContaining({ status: 200, body: [0] }));
    } finally {
      await unblock();
      expect(await management('/workflows/look', 'DELETE')).toMatchObject({ status: 200 });
    }
  });

  it('unregistering answers SLUICE_SNAPSHOT_INVALID and leaves the workflow registered and serving', async () => {
    await unblock();
    expect(await management('/workflows?url=look-1.yaml', 'POST')).toMatchObject({ status: 200 });
    await block();
    try {
      expect(await management('/workflows/look', 'DELETE')).toMatchObject(notWritten(file));
      expect(await versionOfLook()).toBe('1');
      expect(await run()).toEqual(expect.objectContaining({ status: 200, body: [0] }));
    } finally {
      await unblock();
      expect(await management('/workflows/look', 'DELETE')).toMatchObject({ status: 200 });
    }
  });

  it('writes the workflows of each change that was made, and none of those that were not', async () => {
    await unblock();
    expect(await management('/workflows?url=look-2.yaml', 'POST')).toMatchObject({ status: 200 });
    const written = JSON.parse(await readFile(file, 'utf8')) as { workflows?: readonly { name: string; url: string }[] };
    expect(written.workflows).toEqual([{ name: 'look', url: 'look-2.yaml' }]);
    expect(await management('/workflows/look', 'DELETE')).toMatchObject({ status: 200 });
    expect((JSON.parse(await readFile(file, 'utf8')) as { workflows?: unknown }).workflows).toEqual([]);
  });
});
