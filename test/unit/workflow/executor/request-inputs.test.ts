import { describe, expect, it } from '@jest/globals';
import { checkRequestInputs, loadWorkflow, type WorkflowDefinition } from '../../../../src/workflow/index.js';
import { testCatalog } from '../support/test-catalog.js';
import { workflow } from '../support/workflow-builder.js';

function definition(): WorkflowDefinition {
  const text = workflow('typed')
    .input('image', { datatype: 'BYTES' })
    .input('features', { datatype: 'FP32', shape: [-1, 4] })
    .input('any-tensor', { type: 'tensor' })
    .input('text', { type: 'string' })
    .input('count', { type: 'integer', optional: true })
    .input('ratio', { type: 'number', optional: true })
    .input('loud', { type: 'boolean', optional: true })
    .input('items', { type: 'list', optional: true })
    .input('options', { type: 'object', optional: true })
    .input('blob', { type: 'bytes', optional: true })
    .input('whatever', { optional: true })
    .handler('a', 'text/upper', { text: '$request.text' })
    .output('text', 'a.text')
    .output('image', '$request.image')
    .output('features', '$request.features')
    .output('t', '$request.any-tensor')
    .text();
  return loadWorkflow(text, { file: 'typed.yaml', catalog: testCatalog() }).plan.workflow;
}

const IMAGE = new Uint8Array([137, 80]);
const FEATURES = { name: 'features', datatype: 'FP32', shape: [1, 4], data: new Float32Array(4) } as const;
const VALID = { image: IMAGE, features: FEATURES, 'any-tensor': FEATURES, text: 'hi' };

describe('checkRequestInputs', () => {
  it('passes inputs of the declared types', () => {
    const checked = checkRequestInputs(definition(), { ...VALID, count: 3, ratio: 0.5, loud: true, items: [1], options: { a: 1 }, blob: IMAGE, whatever: null });
    expect(checked).toMatchObject({ text: 'hi', count: 3, ratio: 0.5, loud: true, items: [1], options: { a: 1 }, blob: IMAGE, whatever: null });
  });

  it('makes raw bytes for a BYTES input into a one-element tensor', () => {
    expect(checkRequestInputs(definition(), VALID)['image']).toEqual({ name: 'image', datatype: 'BYTES', shape: [1], data: [IMAGE] });
  });

  it('makes JSON data for a tensor input with a datatype into a tensor', () => {
    expect(checkRequestInputs(definition(), { ...VALID, features: [[1, 2, 3, 4]] })['features']).toEqual({
      name: 'features',
      datatype: 'FP32',
      shape: [1, 4],
      data: new Float32Array([1, 2, 3, 4]),
    });
  });

  it('leaves optional inputs out when the request does', () => {
    expect(Object.keys(checkRequestInputs(definition(), VALID)).sort()).toEqual(['any-tensor', 'features', 'image', 'text']);
  });

  it.each([
    ['a missing input', { image: IMAGE, features: FEATURES, 'any-tensor': FEATURES }, 'workflow `typed`: input `text` is missing'],
    ['an unknown input', { ...VALID, txt: 'x' }, 'workflow `typed`: there is no input `txt` (did you mean `text`?)'],
    ['a number for a string', { ...VALID, text: 5 }, 'workflow `typed`: input `text` must be a string (got 5)'],
    ['a fraction for an integer', { ...VALID, count: 1.5 }, 'workflow `typed`: input `count` must be an integer (got 1.5)'],
    ['Infinity for a number', { ...VALID, ratio: Infinity }, 'workflow `typed`: input `ratio` must be a number (got Infinity)'],
    ['a string for a boolean', { ...VALID, loud: 'yes' }, 'workflow `typed`: input `loud` must be true or false (got "yes")'],
    ['a mapping for a list', { ...VALID, items: { a: 1 } }, 'workflow `typed`: input `items` must be a list (got a mapping)'],
    ['a list for an object', { ...VALID, options: [1] }, 'workflow `typed`: input `options` must be a mapping (got a list)'],
    ['a tensor for an object', { ...VALID, options: FEATURES }, 'workflow `typed`: input `options` must be a mapping (got a FP32 tensor)'],
    ['a string for bytes', { ...VALID, blob: 'abc' }, 'workflow `typed`: input `blob` must be raw bytes (got "abc")'],
    ['a tensor of another datatype', { ...VALID, features: { ...FEATURES, datatype: 'INT32', data: new Int32Array(4) } }, 'workflow `typed`: input `features` must be a FP32 tensor (got INT32)'],
    ['a tensor of another shape', { ...VALID, features: { ...FEATURES, shape: [2, 2] } }, 'workflow `typed`: input `features` has shape [2,2], which does not fit [-1,4]'],
    ['JSON data of another shape', { ...VALID, features: [1, 2, 3, 4] }, 'workflow `typed`: input `features` has shape [4], which does not fit [-1,4]'],
    ['JSON data of another type', { ...VALID, features: [['a', 1, 2, 3]] }, 'workflow `typed`: input `features`: element 0 is "a", expected a finite number for FP32'],
    ['ragged JSON data', { ...VALID, features: [[1, 2, 3, 4], [1]] }, 'workflow `typed`: input `features`: ragged data, row [1] has 1 values but 4 were expected; every row must have the same length'],
    ['raw bytes for a numeric tensor', { ...VALID, features: IMAGE }, 'workflow `typed`: input `features` must be a FP32 tensor (got raw bytes)'],
    ['JSON data for a tensor without a datatype', { ...VALID, 'any-tensor': [1, 2] }, 'workflow `typed`: input `any-tensor` must be a tensor (got a list)'],
    [
      'a JSON object shaped like a tensor for a tensor input',
      { ...VALID, features: { name: 'features', datatype: 'FP32', shape: [1, 4], data: [1, 2, 3, 4] } },
      'workflow `typed`: input `features`: element 0 is an object, expected a finite number for FP32',
    ],
    [
      'a JSON object shaped like a tensor for a tensor input without a datatype',
      { ...VALID, 'any-tensor': { name: 'any-tensor', datatype: 'FP32', shape: [1, 4], data: [1, 2, 3, 4] } },
      'workflow `typed`: input `any-tensor` must be a tensor (got a mapping)',
    ],
    [
      'an input named after what every object has',
      { ...VALID, constructor: 'x' },
      'workflow `typed`: there is no input `constructor` (known inputs: image, features, any-tensor, text, count, ratio, loud, items, options, blob, whatever)',
    ],
    [
      'several problems at once',
      { image: IMAGE, features: FEATURES, 'any-tensor': FEATURES, loud: 1, extra: 2 },
      'workflow `typed`: there is no input `extra` (known inputs: image, features, any-tensor, text, count, ratio, loud, items, options, blob, whatever); input `text` is missing; input `loud` must be true or false (got 1)',
    ],
  ])('refuses %s', (_case, request, message) => {
    expect(() => checkRequestInputs(definition(), request)).toThrow(expect.objectContaining({ code: 'SLUICE_WORKFLOW_INPUT_INVALID', message }));
  });
});
