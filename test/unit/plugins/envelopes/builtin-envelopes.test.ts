import { describe, expect, it } from '@jest/globals';
import { bodyEnvelope, jsonEnvelope, kserveEnvelope, kserveV2Envelope } from '../../../../plugins/envelopes/index.js';

const model = {
  name: 'mlp',
  version: '1.0',
  inputs: [{ name: 'input', datatype: 'FP32' as const, shape: [-1, 2] }],
  outputs: [{ name: 'logits', datatype: 'FP32' as const, shape: [-1, 3] }],
};
const context = { model };
const BOTH_LISTS = 'the body has both "instances" and "inputs"; send the instances under one of them: {"instances": [...]} or {"inputs": [...]}';
const json = (value: unknown): { body: Uint8Array; contentType: string } => ({ body: new TextEncoder().encode(JSON.stringify(value)), contentType: 'application/json' });

describe('json envelope', () => {
  it('makes one handler request per instance, marked as a KServe instance, and answers predictions in order', () => {
    expect(jsonEnvelope.decode(json({ instances: [[1, 2], [3, 4]] }), context)).toEqual([
      { body: [1, 2], contentType: 'application/json', instance: true },
      { body: [3, 4], contentType: 'application/json', instance: true },
    ]);
    expect(jsonEnvelope.encode(['a', 'b'], context)).toEqual({ body: { predictions: ['a', 'b'] } });
  });

  it('names its list instances, so a failing instance is named by its place', () => {
    expect(jsonEnvelope.decodeEntries?.(json({ instances: [{ x: 1 }] }), context)).toEqual({
      listName: 'instances',
      requests: [{ body: { x: 1 }, contentType: 'application/json', instance: true }],
    });
  });

  it('refuses a body without instances, an empty list and a body that is not JSON', () => {
    expect(() => jsonEnvelope.decode(json({ inputs: [[1, 2]] }), context)).toThrow('the json envelope expects {"instances": [...]}; the body has no `instances` list');
    expect(() => jsonEnvelope.decode(json({ instances: [] }), context)).toThrow('the json envelope needs at least one instance; `instances` is empty');
    expect(() => jsonEnvelope.decode({ body: new TextEncoder().encode('{'), contentType: 'application/json' }, context)).toThrow(/^the json envelope expects a JSON body .*; the body is not JSON/);
  });
});

describe('kserve envelope', () => {
  it('also reads inputs, as KServe v1 allows, naming its list inputs then', () => {
    expect(kserveEnvelope.decode(json({ inputs: [[1, 2]] }), context)).toEqual([{ body: [1, 2], contentType: 'application/json', instance: true }]);
    expect(kserveEnvelope.decodeEntries?.(json({ inputs: [[1, 2]] }), context).listName).toBe('inputs');
  });

  it('refuses a body with both instances and inputs, naming both, rather than dropping one', () => {
    expect(() => kserveEnvelope.decodeEntries?.(json({ instances: [[1, 2]], inputs: [[3, 4], [5, 6]] }), context)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: BOTH_LISTS }),
    );
  });

  it('refuses a body with instances null beside inputs, as KServe v1 :predict does', () => {
    expect(() => kserveEnvelope.decodeEntries?.(json({ instances: null, inputs: [[3, 4]] }), context)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: BOTH_LISTS }),
    );
  });

  it('answers a body of the wrong shape with the code and message of KServe v1 :predict', () => {
    expect(() => kserveEnvelope.decode(json({ rows: [[1, 2]] }), context)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'a KServe v1 request is {"instances": [...]} (or {"inputs": [...]})' }),
    );
    expect(() => kserveEnvelope.decode(json({ inputs: [] }), context)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: '"inputs" is empty; send at least one instance' }),
    );
  });
});

describe('kserve envelope: bodies that are not JSON', () => {
  it('answers a malformed body with the code and message of KServe v1 :predict', () => {
    expect(() => kserveEnvelope.decode({ body: new TextEncoder().encode('{"instances": ['), contentType: 'application/json' }, context)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_MALFORMED_JSON', message: expect.stringMatching(/^the request body is not valid JSON: /) as unknown }),
    );
  });

  it('answers an empty body as KServe v1 :predict does', () => {
    expect(() => kserveEnvelope.decode({ body: new Uint8Array(0), contentType: 'application/json' }, context)).toThrow(
      expect.objectContaining({ code: 'SLUICE_REQUEST_MALFORMED_JSON', message: 'the request body is empty; send a JSON document' }),
    );
  });
});

describe('envelopes that read JSON', () => {
  const latin1 = { ...json({ instances: [[1, 2]] }), charset: 'latin1' };

  it.each([jsonEnvelope, kserveEnvelope, kserveV2Envelope])('$name refuses a body declared in a charset other than UTF-8 with 415', (envelope) => {
    expect(() => envelope.decode(latin1, context)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
        message: 'the body is declared as charset=latin1, but Sluice reads JSON and text bodies as UTF-8 only; send the body UTF-8 encoded, with charset=utf-8 or no charset',
      }),
    );
  });

  it('reads a body declared as UTF-8', () => {
    expect(jsonEnvelope.decode({ ...json({ instances: [[1, 2]] }), charset: 'utf-8' }, context)).toHaveLength(1);
  });
});

describe('body envelope', () => {
  it('hands the raw bytes over and sends bytes back as they are', () => {
    const raw = { body: new Uint8Array([1, 2, 3]), contentType: 'image/png' };
    expect(bodyEnvelope.decode(raw, context)).toEqual([{ body: raw.body, contentType: 'image/png' }]);
    expect(bodyEnvelope.encode([new Uint8Array([9])], context)).toEqual({ body: new Uint8Array([9]), contentType: 'application/octet-stream' });
    expect(bodyEnvelope.encode([{ label: 'cat' }], context)).toEqual({ body: { label: 'cat' } });
  });
});

describe('kservev2 envelope', () => {
  it('hands an OIP request to the handler as it is', () => {
    const request = { inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 2], data: [1, 2] }] };
    expect(kserveV2Envelope.decode(json(request), context)).toEqual([{ body: request, contentType: 'application/json' }]);
    expect(() => kserveV2Envelope.decode(json({ instances: [] }), context)).toThrow(/the body has no `inputs` list/);
  });

  it('answers a list for a one-output model as that output, typed from its spec', () => {
    expect(kserveV2Envelope.encode([[[0.1, 0.2, 0.7]]], context).body).toEqual({
      model_name: 'mlp',
      model_version: '1.0',
      outputs: [{ name: 'logits', datatype: 'FP32', shape: [1, 3], data: [0.1, 0.2, 0.7] }],
    });
  });

  it('answers an object under a key as a BYTES output of its JSON, not as a tensor of objects', () => {
    const body = kserveV2Envelope.encode([{ label: 'setosa', probabilities: { setosa: 0.9, virginica: 0.1 } }], context).body as { outputs: unknown[] };
    expect(body.outputs).toEqual([
      { name: 'label', datatype: 'BYTES', shape: [1], data: ['setosa'] },
      { name: 'probabilities', datatype: 'BYTES', shape: [1], data: ['{"setosa":0.9,"virginica":0.1}'] },
    ]);
  });

  it('answers a list of objects for a one-output model as a BYTES output of its JSON', () => {
    const body = kserveV2Envelope.encode([[{ label: 'positive', probability: 0.9 }]], context).body as { outputs: unknown[] };
    expect(body.outputs).toEqual([{ name: 'logits', datatype: 'BYTES', shape: [1], data: ['[{"label":"positive","probability":0.9}]'] }]);
  });

  it('answers a ragged list as a BYTES output of its JSON rather than refusing the request', () => {
    const body = kserveV2Envelope.encode([{ logits: [[1, 2], [3]] }], context).body as { outputs: unknown[] };
    expect(body.outputs).toEqual([{ name: 'logits', datatype: 'BYTES', shape: [1], data: ['[[1,2],[3]]'] }]);
  });

  it('answers a list mixing numbers and strings as a BYTES output of its JSON', () => {
    const body = kserveV2Envelope.encode([{ logits: [[1, 'a']] }], context).body as { outputs: unknown[] };
    expect(body.outputs).toEqual([{ name: 'logits', datatype: 'BYTES', shape: [1], data: ['[[1,"a"]]'] }]);
  });

  it('answers each key of an object as an output, strings as BYTES', () => {
    const body = kserveV2Envelope.encode([{ label: 'setosa', logits: [[1, 2, 3]] }], context).body as { outputs: unknown[] };
    expect(body.outputs).toEqual([
      { name: 'label', datatype: 'BYTES', shape: [1], data: ['setosa'] },
      { name: 'logits', datatype: 'FP32', shape: [1, 3], data: [1, 2, 3] },
    ]);
  });
});
