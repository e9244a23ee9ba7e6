import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../../../src/package-files/package-root.js';
import { createStaticCatalog, formatWorkflowProblem, parseWorkflow, validateWorkflow, type WorkflowProblem } from '../../../../src/workflow/index.js';
import { TEST_HANDLERS, testCatalog } from '../support/test-catalog.js';
import { workflow } from '../support/workflow-builder.js';

function validate(text: string): ReturnType<typeof validateWorkflow> {
  return validateWorkflow(parseWorkflow(text, { file: 'w.yaml' }), testCatalog());
}

describe('validateWorkflow', () => {
  it('accepts the OCR example and applies the defaults to every node', () => {
    const text = readFileSync(join(packageRoot(), 'test', 'fixtures', 'workflows', 'valid', 'ocr.yaml'), 'utf8');
    const { workflow: definition, warnings } = validate(text);
    expect(warnings).toEqual([]);
    expect(definition).toMatchObject({ name: 'ocr', version: '1.0', description: 'Detect text lines, read each one', file: 'w.yaml' });
    expect(definition.nodes['read']).toMatchObject({
      id: 'read',
      target: { kind: 'model', model: 'ppocr-rec', version: undefined },
      forEach: { alternatives: [{ kind: 'node', node: 'crop', output: 'lines' }] },
      inputs: { x: { alternatives: [{ kind: 'item' }] } },
      timeoutMs: 5000,
      retry: { attempts: 1, backoffMs: 0 },
      onError: { kind: 'fail' },
      concurrency: 32,
    });
  });

  it('gives a node its own settings over the defaults', () => {
    const text = workflow('w')
      .defaults({ timeoutMs: 100, retry: { attempts: 3, backoffMs: 10 } })
      .input('text', { type: 'string' })
      .handler('a', 'text/upper', { text: '$request.text' }, { timeoutMs: 7, retry: { backoffMs: 5 }, onError: 'skip', concurrency: 2 })
      .output('text', 'a.text')
      .text();
    expect(validate(text).workflow.nodes['a']).toMatchObject({ timeoutMs: 7, retry: { attempts: 3, backoffMs: 5 }, onError: { kind: 'skip' }, concurrency: 2 });
  });

  it('reads a fallback', () => {
    const text = workflow('w')
      .handler('a', 'text/upper', { text: { value: 'x' } }, { onError: { fallback: { text: '?' } } })
      .output('text', 'a.text')
      .text();
    expect(validate(text).workflow.nodes['a']?.onError).toEqual({ kind: 'fallback', outputs: { text: '?' } });
  });

  it('uses the built-in defaults without `defaults:`', () => {
    const text = workflow('w').handler('a', 'text/upper', { text: { value: 'x' } }).output('text', 'a.text').text();
    expect(validate(text).workflow.nodes['a']).toMatchObject({ timeoutMs: 30000, retry: { attempts: 1, backoffMs: 0 }, onError: { kind: 'fail' }, concurrency: 32 });
  });

  it('resolves `model: name@version` to that version', () => {
    const text = workflow('w').node('c', { model: 'classifier@2', inputs: { x: { value: [[1, 2, 3, 4]] } } }).output('p', 'c.probs').text();
    expect(validate(text).workflow.nodes['c']?.target).toEqual({ kind: 'model', model: 'classifier', version: '2' });
  });

  it('records the ports of a model from the catalog', () => {
    const text = workflow('w').node('c', { model: 'classifier', inputs: { x: { value: [[1, 2, 3, 4]] } } }).output('p', 'c.probs').text();
    expect(validate(text).workflow.nodes['c']?.ports).toEqual({
      inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 4], required: true }],
      outputs: [{ name: 'probs', datatype: 'FP32', shape: [-1, 3], list: false, required: true }],
    });
  });

  it('types an input with a datatype as a tensor and one with nothing as any', () => {
    const text = workflow('w')
      .input('image', { datatype: 'BYTES' })
      .input('anything')
      .input('maybe', { type: 'number', optional: true })
      .handler('a', 'ocr/detect-preprocess', { image: '$request.image' })
      .output('pixels', 'a.pixels')
      .output('anything', '$request.anything')
      .output('maybe', '$request.maybe')
      .text();
    expect(validate(text).workflow.inputs).toEqual({
      image: { type: 'tensor', datatype: 'BYTES', optional: false },
      anything: { type: 'any', optional: false },
      maybe: { type: 'number', optional: true },
    });
  });

  it('accepts a sub-workflow node with the inputs its workflow declares', () => {
    const text = workflow('w').input('text', { type: 'string' }).node('s', { workflow: 'shout', inputs: { text: '$request.text' } }).output('text', 's.text').text();
    expect(validate(text).workflow.nodes['s']?.target).toEqual({ kind: 'workflow', workflow: 'shout' });
  });

  it('accepts a `when` that reads an upstream node and makes it a dependency', () => {
    const text = workflow('w')
      .input('text', { type: 'string' })
      .handler('first', 'text/upper', { text: '$request.text' })
      .handler('second', 'text/upper', { text: '$request.text' }, { when: 'nodes.first.text == "A"' })
      .output('text', 'second.text ?? first.text')
      .text();
    expect(validate(text).workflow.nodes['second']?.when?.references).toEqual([{ kind: 'node', node: 'first', output: 'text', offset: 0 }]);
  });

  it('lets a `list` request input of JSON rows feed a model input', () => {
    const text = workflow('w').input('rows', { type: 'list' }).node('c', { model: 'classifier', inputs: { x: '$request.rows' } }).output('p', 'c.probs').text();
    expect(validate(text).workflow.nodes['c']?.inputs['x']?.alternatives).toEqual([{ kind: 'request', input: 'rows' }]);
  });

  it('returns warnings for a valid workflow instead of refusing it', () => {
    const text = 'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: w }\nnodes:\n  a: { handler: text/upper, inputs: { text: { value: x } } }\n  b: { handler: text/upper, inputs: { text: { value: y } } }\noutputs: { text: a.text }\n';
    expect(validate(text).warnings.map(formatWorkflowProblem)).toEqual([
      'w.yaml:6:3: warning: nodes.b: contributes to no workflow output; use one of its outputs in `outputs` or in a node that does, or remove it',
    ]);
  });
});

describe('schemas/workflow.schema.json', () => {
  const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'workflow.schema.json'), 'utf8')) as Record<string, unknown>;

  /** `path: description` is missing for every property schema without one. */
  function undescribed(node: unknown, path: string): string[] {
    if (typeof node !== 'object' || node === null) return [];
    const record = node as Record<string, unknown>;
    const own = path !== '' && !('description' in record) && !('$ref' in record) ? [path] : [];
    const properties = Object.entries((record['properties'] ?? {}) as Record<string, unknown>).flatMap(([key, child]) => undescribed(child, `${path}/${key}`));
    const definitions = Object.entries((record['definitions'] ?? {}) as Record<string, unknown>).flatMap(([key, child]) => undescribed(child, `#/definitions/${key}`));
    const additional = typeof record['additionalProperties'] === 'object' ? undescribed(record['additionalProperties'], `${path}/*`) : [];
    return [...own, ...properties, ...definitions, ...additional];
  }

  it('describes every property', () => {
    expect(undescribed(schema, '')).toEqual([]);
  });
});

describe('validateWorkflow: workflow nodes that lead back', () => {
  /** Every problem of a refused workflow, one formatted line each. */
  function problemsOf(run: () => unknown): string[] {
    try {
      run();
    } catch (error) {
      return (error as { details: { problems: WorkflowProblem[] } }).details.problems.map(formatWorkflowProblem);
    }
    throw new Error('the workflow was accepted');
  }

  const callsShout = workflow('caller').input('text', { type: 'string' }).node('s', { workflow: 'shout', inputs: { text: '$request.text' } }).output('text', 's.text');

  it('serves the definition under the name it is registered under', () => {
    const text = workflow('w').handler('a', 'text/upper', { text: { value: 'x' } }).output('text', 'a.text').text();
    expect(validateWorkflow(parseWorkflow(text, { file: 'w.yaml' }), testCatalog(), { name: 'served' }).workflow.name).toBe('served');
  });

  /*
   *   caller, registered as `shout`: s (workflow: shout) ──▶ text        it would call itself
   */
  it('refuses a workflow node naming the name the workflow is registered under', () => {
    const parsed = parseWorkflow(callsShout.text(), { file: 'caller.yaml' });
    expect(problemsOf(() => validateWorkflow(parsed, testCatalog(), { name: 'shout' }))).toEqual([
      'caller.yaml:1:135: error: nodes.s.workflow: the workflow calls itself; a workflow node must name another workflow',
    ]);
  });

  /*
   *   caller: s (workflow: shout) ──▶ text
   *   shout:  (workflow: relay) ──▶ …        relay: (workflow: caller) ──▶ …        the loop closes
   */
  it('refuses a workflow node whose workflow calls this workflow back', () => {
    const catalog = createStaticCatalog({
      handlers: TEST_HANDLERS,
      workflows: [
        { name: 'shout', inputs: { text: { type: 'string', optional: false } }, outputs: ['text'], calls: ['relay'] },
        { name: 'relay', inputs: {}, outputs: ['text'], calls: ['caller'] },
      ],
    });
    const parsed = parseWorkflow(callsShout.text(), { file: 'caller.yaml' });
    expect(problemsOf(() => validateWorkflow(parsed, catalog))).toEqual([
      'caller.yaml:1:135: error: nodes.s.workflow: the workflow calls itself through workflow `shout`: caller → shout → relay → caller; a workflow cannot call itself, not even through other workflows; remove the workflow node that closes the loop',
    ]);
  });
});

describe('validateWorkflow: names every object has', () => {
  it('refuses `$request.constructor` when no input `constructor` is declared', () => {
    const text = 'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: w }\nnodes:\n  a: { handler: text/upper, inputs: { text: $request.constructor } }\noutputs: { text: a.text }\n';
    expect(() => validate(text)).toThrow(
      expect.objectContaining({
        message: 'workflow w.yaml is invalid (1 problem):\nw.yaml:5:45: error: nodes.a.inputs.text: `$request.constructor` is not a declared input; declare `constructor` under `inputs`',
      }),
    );
  });

  it('keeps a node, an input and an output named `__proto__`', () => {
    const text =
      'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: w }\ninputs: { __proto__: { type: string } }\nnodes:\n  __proto__: { handler: text/upper, inputs: { text: $request.__proto__ } }\noutputs: { __proto__: __proto__.text }\n';
    const { workflow: definition } = validate(text);
    expect([Object.keys(definition.inputs), Object.keys(definition.nodes), Object.keys(definition.outputs)]).toEqual([['__proto__'], ['__proto__'], ['__proto__']]);
  });
});

describe('validateWorkflow: many cycles', () => {
  /*
   *   n0 ─┐  n1 ─┐  …  n11 ─┐        twelve nodes, each reading itself
   *   ▲   │  ▲   │      ▲    │
   *   └───┘  └───┘      └────┘
   */
  it('lists ten cycles and says there are more', () => {
    const builder = workflow('w').output('text', 'n0.text');
    for (let i = 0; i < 12; i++) builder.handler(`n${i}`, 'text/upper', { text: `n${i}.text` });
    const parsed = parseWorkflow(builder.text(), { file: 'w.yaml' });
    let problems: string[] = [];
    try {
      validateWorkflow(parsed, testCatalog());
    } catch (error) {
      problems = (error as { details: { problems: WorkflowProblem[] } }).details.problems.map((problem) => problem.message);
    }
    expect(problems).toEqual([
      'has more cycles than the 10 listed',
      ...Array.from({ length: 10 }, (_, i) => `is part of a cycle: n${i} → n${i}`),
    ]);
  });
});
