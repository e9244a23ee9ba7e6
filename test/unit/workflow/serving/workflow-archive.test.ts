import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { workflowArchiveIdentity } from '../../../../src/workflow/serving/workflow-archive.js';
import { makeTempDir } from '../../../support/temp-dir.js';

const SLUICE_WORKFLOW = `apiVersion: sluice/v1
kind: Workflow
metadata: { name: reader, version: "2.1" }
inputs: { x: { datatype: FP32 } }
nodes:
  echo: { handler: test/echo, inputs: { x: $request.x } }
outputs: { y: echo.x }
`;

const TORCHSERVE_SPEC = `models:
  first: { url: iris.mar }
dag:
  first: []
`;

describe('workflowArchiveIdentity', () => {
  let root: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: root, cleanup } = await makeTempDir('sluice-workflow-identity-'));
  });
  afterEach(() => cleanup());

  async function workflowDir(name: string, text: string | undefined): Promise<string> {
    const dir = join(root, name);
    await mkdir(dir, { recursive: true });
    if (text !== undefined) await writeFile(join(dir, 'workflow.yaml'), text);
    return dir;
  }

  it('packs a Sluice workflow under its metadata name and version', async () => {
    expect(await workflowArchiveIdentity(await workflowDir('anything', SLUICE_WORKFLOW))).toEqual({ name: 'reader', version: '2.1', kind: 'workflow' });
  });

  it('gives a workflow without metadata.version version 1', async () => {
    const text = SLUICE_WORKFLOW.replace('metadata: { name: reader, version: "2.1" }', 'metadata: { name: reader }');
    expect(await workflowArchiveIdentity(await workflowDir('anything', text))).toEqual({ name: 'reader', version: '1', kind: 'workflow' });
  });

  it('packs a TorchServe spec under its directory name and version 1', async () => {
    expect(await workflowArchiveIdentity(await workflowDir('dog-breeds', TORCHSERVE_SPEC))).toEqual({ name: 'dog-breeds', version: '1', kind: 'workflow' });
  });

  it('refuses a directory without workflow.yaml', async () => {
    const dir = await workflowDir('empty', undefined);
    await expect(workflowArchiveIdentity(dir)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NOT_FOUND',
      message: `${dir}: holds no workflow.yaml; a workflow directory keeps its workflow in workflow.yaml`,
    });
  });

  it('refuses a workflow without metadata.name', async () => {
    const dir = await workflowDir('nameless', SLUICE_WORKFLOW.replace('metadata: { name: reader, version: "2.1" }', 'metadata: { version: "2.1" }'));
    await expect(workflowArchiveIdentity(dir)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_INVALID',
      message: `${join(dir, 'workflow.yaml')}: \`metadata.name\` is missing or not a workflow name; set it before packing`,
    });
  });

  it('refuses an unquoted numeric version', async () => {
    const dir = await workflowDir('numeric', SLUICE_WORKFLOW.replace('version: "2.1"', 'version: 2.1'));
    await expect(workflowArchiveIdentity(dir)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_INVALID',
      message: `${join(dir, 'workflow.yaml')}: \`metadata.version\` is not a version string; quote it, e.g. "1.0"`,
    });
  });
});
