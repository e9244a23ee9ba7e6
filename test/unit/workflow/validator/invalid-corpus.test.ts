import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { isSluiceError } from '../../../../src/sdk/errors/index.js';
import { packageRoot } from '../../../../src/package-files/package-root.js';
import { formatWorkflowProblem, loadWorkflow, type WorkflowProblem } from '../../../../src/workflow/index.js';
import { testCatalog } from '../support/test-catalog.js';

const dir = join(packageRoot(), 'test', 'fixtures', 'workflows', 'invalid');
const cases = readdirSync(dir)
  .filter((name) => name.endsWith('.yaml'))
  .map((name) => name.slice(0, -'.yaml'.length))
  .sort();

/** Every problem the file gives, errors then warnings, one formatted line each. */
function problemsOf(name: string): string[] {
  const text = readFileSync(join(dir, `${name}.yaml`), 'utf8');
  try {
    loadWorkflow(text, { file: `${name}.yaml`, catalog: testCatalog() });
  } catch (error) {
    if (!isSluiceError(error, 'SLUICE_WORKFLOW_INVALID')) throw error;
    const details = error.details as { problems: WorkflowProblem[]; warnings: WorkflowProblem[] };
    return [...details.problems, ...details.warnings].map(formatWorkflowProblem);
  }
  throw new Error(`${name}.yaml loaded without errors`);
}

function expectedOf(name: string): string[] {
  return readFileSync(join(dir, `${name}.expected.txt`), 'utf8').split('\n').filter((line) => line !== '');
}

describe('invalid workflow corpus (test/fixtures/workflows/invalid)', () => {
  it('has an expected file for every case', () => {
    const expected = readdirSync(dir).filter((name) => name.endsWith('.expected.txt')).map((name) => name.slice(0, -'.expected.txt'.length));
    expect(expected.sort()).toEqual(cases);
  });

  it.each(cases)('%s.yaml gives exactly the problems of its .expected.txt', (name) => {
    expect(problemsOf(name)).toEqual(expectedOf(name));
  });
});
