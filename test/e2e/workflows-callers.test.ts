import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { gatedTagHandler, NodeGate } from '../support/workflows/test-node-handlers.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** A workflow `tagger` whose one node answers `tag`, under the output name `output`, with the inputs `inputs`. */
function tagger(output: string, inputs = '{ tag: { type: string } }', tagFrom = '$request.tag'): string {
  return `apiVersion: sluice/v1
kind: Workflow
metadata: { name: tagger }
inputs: ${inputs}
nodes:
  echo: { handler: test/gated-tag, inputs: { tag: ${tagFrom} } }
outputs: { ${output}: echo.tag }
`;
}

/** `caller` runs `tagger` and answers its output `tag`. */
const CALLER = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: caller }
inputs: { tag: { type: string } }
nodes:
  sub: { workflow: tagger, inputs: { tag: $request.tag } }
outputs: { tag: sub.tag }
`;

/**
 *   caller ──▶ tagger (test/gated-tag)
 *
 * A registered workflow's callers were validated against it: replacing it with a version they no longer
 * fit, or unregistering it, would make their runs fail or quietly lose an output.
 */
describe('workflows that other workflows call', () => {
  let t: TestServer;
  const register = (url: string): ReturnType<typeof requestJson> => requestJson(`${t.management}/workflows?url=${url}`, { method: 'POST' });
  const run = (): ReturnType<typeof requestJson> => requestJson(`${t.inference}/wfpredict/caller`, { method: 'POST', json: { tag: 'called' } });

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: [],
      config: { workflows: [] },
      nodeHandlers: [gatedTagHandler(new NodeGate())],
      prepare: async (_store, dir) => {
        await writeWorkflowFile(dir, 'tagger.yaml', tagger('tag'));
        await writeWorkflowFile(dir, 'tagger-renamed.yaml', tagger('label'));
        await writeWorkflowFile(dir, 'tagger-more-inputs.yaml', tagger('tag', '{ tag: { type: string }, note: { type: string } }', '$request.note'));
        await writeWorkflowFile(dir, 'tagger-extra-output.yaml', tagger('tag', '{ tag: { type: string }, note: { type: string, optional: true } }'));
        await writeWorkflowFile(dir, 'caller.yaml', CALLER);
      },
    });
    expect(await register('tagger')).toMatchObject({ status: 200 });
    expect(await register('caller')).toMatchObject({ status: 200 });
  });
  afterAll(() => t.close());

  it('refuses a replacement without an output a caller reads with 400 SLUICE_WORKFLOW_INVALID naming the caller, keeping the one registered', async () => {
    const refused = await register('tagger-renamed');
    expect(refused).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_WORKFLOW_INVALID',
        message: expect.stringMatching(
          /^cannot replace workflow `tagger`: workflow `caller`, which calls it, would no longer be valid with the new version; .*\ncaller\.yaml:\d+:\d+: error: outputs\.tag: node `sub` \(workflow tagger\) has no output `tag`; known outputs: label$/,
        ) as unknown,
        problems: [expect.objectContaining({ file: 'caller.yaml', path: 'outputs.tag' })],
      },
    });
    expect(await run()).toMatchObject({ status: 200, body: 'called' });
  });

  it('refuses a replacement with a required input a caller does not give', async () => {
    expect(await register('tagger-more-inputs')).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_WORKFLOW_INVALID', problems: [expect.objectContaining({ file: 'caller.yaml', path: 'nodes.sub.inputs' })] },
    });
    expect(await run()).toMatchObject({ status: 200, body: 'called' });
  });

  it('replaces a workflow with a version its callers still fit', async () => {
    expect(await register('tagger-extra-output')).toMatchObject({ status: 200 });
    expect(await run()).toMatchObject({ status: 200, body: 'called' });
  });

  it('refuses to unregister a workflow another calls with 409 SLUICE_WORKFLOW_IN_USE naming the caller, and keeps both running', async () => {
    expect(await requestJson(`${t.management}/workflows/tagger`, { method: 'DELETE' })).toMatchObject({
      status: 409,
      body: {
        errorCode: 'SLUICE_WORKFLOW_IN_USE',
        message:
          'cannot unregister workflow `tagger`: workflow `caller` calls it and would fail without it; unregister the caller first (DELETE /workflows/caller), then this workflow',
      },
    });
    expect(await run()).toMatchObject({ status: 200, body: 'called' });
  });

  it('unregisters the workflow once its caller is gone', async () => {
    expect(await requestJson(`${t.management}/workflows/caller`, { method: 'DELETE' })).toMatchObject({ status: 200 });
    expect(await requestJson(`${t.management}/workflows/tagger`, { method: 'DELETE' })).toMatchObject({ status: 200 });
  });
});
