import { describe, expect, it } from '@jest/globals';
import type { WorkflowProgress } from '../../../../src/workflow/index.js';
import { compute, WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

/*
 *   { value: [a, b, c] } ──▶ each (forEach, one call at a time) ──▶ out
 */
function tagsRun(): { harness: WorkflowHarness; plan: ReturnType<WorkflowHarness['plan']> } {
  const harness = new WorkflowHarness().handler('t/tag', compute(['i'], ['out'], (v) => ({ out: `tag-${String(v['i'])}` })));
  const plan = harness.plan(
    workflow('tags').handler('each', 't/tag', { i: '$item' }, { forEach: { value: ['a', 'b', 'c'] }, concurrency: 1 }).output('out', 'each.out'),
  );
  return { harness, plan };
}

describe('a progress consumer that fails', () => {
  it('does not fail the run when the consumer throws', async () => {
    const { harness, plan } = tagsRun();
    const result = await harness.run(plan, {}, {
      onProgress: () => {
        throw new Error('the stream is gone');
      },
    });
    expect(result.outputs).toEqual({ out: ['tag-a', 'tag-b', 'tag-c'] });
  });

  it('is told nothing more once it has thrown', async () => {
    const { harness, plan } = tagsRun();
    const heard: number[] = [];
    await harness.run(plan, {}, {
      onProgress: (progress: WorkflowProgress) => {
        heard.push(progress.index);
        throw new Error('the stream is gone');
      },
    });
    expect(heard).toEqual([0]);
  });

  it('logs one warning naming the workflow, the node and what the consumer threw', async () => {
    const { harness, plan } = tagsRun();
    await harness.run(plan, {}, {
      onProgress: () => {
        throw new Error('the stream is gone');
      },
    });
    expect(harness.logger.lines.filter((line) => line.level === 'warn')).toEqual([
      {
        level: 'warn',
        message: 'workflow progress could not be reported; the run goes on without reporting more',
        fields: { workflow: 'tags', node: 'each', error: 'the stream is gone' },
      },
    ]);
  });

  it('does not fail the run, nor leave its rejection unhandled, when an asynchronous consumer rejects', async () => {
    const { harness, plan } = tagsRun();
    const result = await harness.run(plan, {}, {
      onProgress: () => Promise.reject(new Error('the write failed')),
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(result.outputs).toEqual({ out: ['tag-a', 'tag-b', 'tag-c'] });
    expect(harness.logger.lines.filter((line) => line.level === 'warn').map((line) => line.fields)).toEqual([{ workflow: 'tags', node: 'each', error: 'the write failed' }]);
  });
});
