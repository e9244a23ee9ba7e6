import { describe, expect, it } from '@jest/globals';
import { createStaticCatalog, formatWorkflowProblem, parseWorkflow, validateWorkflow, type WorkflowCatalog, type WorkflowProblem, type WorkflowSignature } from '../../../../src/workflow/index.js';
import { TEST_HANDLERS } from '../support/test-catalog.js';
import { workflow, type WorkflowBuilder } from '../support/workflow-builder.js';

/** `w1 → w2 → … → w{count}`: registered workflows, each calling the next; the last calls `last` when given. */
function chain(count: number, prefix = 'w', last?: string): WorkflowSignature[] {
  return Array.from({ length: count }, (_, i) => {
    const next = i + 1 < count ? `${prefix}${i + 2}` : last;
    return { name: `${prefix}${i + 1}`, inputs: {}, outputs: ['text'], calls: next === undefined ? [] : [next] };
  });
}

function catalogOf(workflows: readonly WorkflowSignature[]): WorkflowCatalog {
  return createStaticCatalog({ handlers: TEST_HANDLERS, workflows });
}

/** Every problem of validating `builder` against `catalog`, one formatted line each; [] when it is accepted. */
function problemsOf(builder: WorkflowBuilder, catalog: WorkflowCatalog): string[] {
  try {
    validateWorkflow(parseWorkflow(builder.text(), { file: `${builder.name}.yaml` }), catalog);
  } catch (error) {
    return (error as { details: { problems: WorkflowProblem[] } }).details.problems.map(formatWorkflowProblem);
  }
  return [];
}

/** A workflow whose one node `call` runs `target`. */
function calling(name: string, target: string): WorkflowBuilder {
  return workflow(name).node('call', { workflow: target }).output('text', 'call.text');
}

describe('validateWorkflow: how deep sub-workflows nest', () => {
  /*
   *   top ──▶ w1 ──▶ w2 ──▶ … ──▶ w8        nine workflows, eight levels: as deep as a run goes
   */
  it('accepts a workflow whose chain of sub-workflows is 8 levels deep', () => {
    expect(problemsOf(calling('top', 'w1'), catalogOf(chain(8)))).toEqual([]);
  });

  /*
   *   top ──▶ w1 ──▶ w2 ──▶ … ──▶ w9        ten workflows, nine levels
   */
  it('refuses a workflow node whose chain of sub-workflows is 9 levels deep, naming the chain', () => {
    expect(problemsOf(calling('top', 'w1'), catalogOf(chain(9)))).toEqual([
      'top.yaml:1:111: error: nodes.call.workflow: the chain of workflows top → w1 → w2 → w3 → w4 → w5 → w6 → w7 → w8 → w9 nests 9 levels deep, more than the 8 allowed; each workflow node adds a level below the workflows that call this one; call a workflow that nests less deep, or merge some of the chain into one workflow',
    ]);
  });

  /*
   *   top ──▶ long-name-1 ──▶ … ──▶ long-name-9        too long a chain to write out in full
   */
  it('names a chain of long names by its ends', () => {
    const prefix = `${'n'.repeat(30)}-`;
    expect(problemsOf(calling('top', `${prefix}1`), catalogOf(chain(9, prefix)))).toEqual([
      `top.yaml:1:111: error: nodes.call.workflow: the chain of workflows top → ${prefix}1 → … → ${prefix}8 → ${prefix}9 nests 9 levels deep, more than the 8 allowed; each workflow node adds a level below the workflows that call this one; call a workflow that nests less deep, or merge some of the chain into one workflow`,
    ]);
  });

  /*
   *   top ──▶ w1 ──▶ w2                          the short branch
   *           └────▶ d1 ──▶ d2 ──▶ … ──▶ d8      the long one: the chain named
   */
  it('names the longest chain when the workflow called branches', () => {
    const workflows = [{ name: 'w1', inputs: {}, outputs: ['text'], calls: ['w2', 'd1'] }, ...chain(8, 'd'), { name: 'w2', inputs: {}, outputs: ['text'], calls: [] }];
    expect(problemsOf(calling('top', 'w1'), catalogOf(workflows))).toEqual([
      'top.yaml:1:111: error: nodes.call.workflow: the chain of workflows top → w1 → d1 → d2 → d3 → d4 → d5 → d6 → d7 → d8 nests 9 levels deep, more than the 8 allowed; each workflow node adds a level below the workflows that call this one; call a workflow that nests less deep, or merge some of the chain into one workflow',
    ]);
  });

  /*
   *   w1 ──▶ … ──▶ w8 ──▶ leaf                  registered: eight levels
   *   leaf, registered again: call ──▶ extra      the callers' chain would go nine deep
   */
  it('refuses a workflow whose registered callers would nest nine levels deep through it', () => {
    const workflows = [...chain(8, 'w', 'leaf'), { name: 'leaf', inputs: {}, outputs: ['text'], calls: [] }, { name: 'extra', inputs: {}, outputs: ['text'], calls: [] }];
    expect(problemsOf(calling('leaf', 'extra'), catalogOf(workflows))).toEqual([
      'leaf.yaml:1:112: error: nodes.call.workflow: the chain of workflows w1 → w2 → w3 → w4 → w5 → w6 → w7 → w8 → leaf → extra nests 9 levels deep, more than the 8 allowed; each workflow node adds a level below the workflows that call this one; call a workflow that nests less deep, or merge some of the chain into one workflow',
    ]);
  });

  /*
   *   w1 ──▶ w2 ──▶ … ──▶ w9 ──▶ leaf (not registered)        leaf, registered: nine levels below w1
   */
  it('refuses a workflow that the chain of its registered callers already puts nine levels deep', () => {
    const leaf = workflow('leaf').handler('up', 'text/upper', { text: { value: 'x' } }).output('text', 'up.text');
    expect(problemsOf(leaf, catalogOf(chain(9, 'w', 'leaf')))).toEqual([
      'leaf.yaml:1:64: error: metadata.name: the chain of workflows w1 → w2 → w3 → w4 → w5 → w6 → w7 → w8 → w9 → leaf nests 9 levels deep, more than the 8 allowed; the workflows calling this one already nest that deep; register it under another name, or shorten the chain of its callers first',
    ]);
  });

  /*
   *   w1 ──▶ … ──▶ w8 ──▶ leaf (not registered)        leaf, registered: eight levels below w1
   */
  it('accepts a workflow that the chain of its registered callers puts eight levels deep', () => {
    const leaf = workflow('leaf').handler('up', 'text/upper', { text: { value: 'x' } }).output('text', 'up.text');
    expect(problemsOf(leaf, catalogOf(chain(8, 'w', 'leaf')))).toEqual([]);
  });
});
