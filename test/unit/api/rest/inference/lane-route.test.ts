import { describe, expect, it } from '@jest/globals';
import type { IncomingHttpHeaders } from 'node:http';
import { laneRouteOf, shadowsLaneRoute, type LaneRegistry } from '../../../../../src/api/rest/inference/inference-lane.js';
import type { ModelVersion } from '../../../../../src/serving/model-version.js';

const LIMIT = 1000;
const JSON_BODY: IncomingHttpHeaders = { 'content-type': 'application/json', 'content-length': '12' };

/** A registry of `mlp` (no envelope) and `wrapped` (whose manifest names an envelope). */
const registry: LaneRegistry = {
  has: (name: string) => name === 'mlp' || name === 'wrapped',
  resolve: (name: string) => ({ manifest: name === 'wrapped' ? { envelope: 'test/wrap' } : {} }) as unknown as ModelVersion,
};

const route = (url: string, headers: IncomingHttpHeaders = JSON_BODY, method = 'POST') => laneRouteOf({ method, url, headers }, registry, LIMIT);

describe('laneRouteOf', () => {
  it('takes a JSON POST to /predictions/{model} of a registered model', () => {
    expect(route('/predictions/mlp')).toEqual({ kind: 'predictions', pattern: '/predictions/:model', model: 'mlp', method: 'POST' });
  });

  it('takes OIP infer requests in JSON and in the binary tensor extension', () => {
    expect(route('/v2/models/mlp/infer')).toEqual({ kind: 'oip', pattern: '/v2/models/:model/infer', model: 'mlp', method: 'POST' });
    const binary = { 'content-type': 'application/octet-stream', 'content-length': '300', 'inference-header-content-length': '44' };
    expect(route('/v2/models/mlp/infer', binary)).toEqual({ kind: 'oip', pattern: '/v2/models/:model/infer', model: 'mlp', method: 'POST' });
  });

  it('takes a JSON PUT to /predictions/{model}, as curl -T sends it, and leaves a PUT to OIP infer to the framework', () => {
    expect(route('/predictions/mlp', JSON_BODY, 'PUT')).toEqual({ kind: 'predictions', pattern: '/predictions/:model', model: 'mlp', method: 'PUT' });
    expect(route('/v2/models/mlp/infer', JSON_BODY, 'PUT')).toBeUndefined();
  });

  it('leaves other methods, versioned routes, query strings and escaped names to the framework', () => {
    expect({
      get: route('/predictions/mlp', JSON_BODY, 'GET'),
      versioned: route('/predictions/mlp/1.0'),
      versionedOip: route('/v2/models/mlp/versions/1.0/infer'),
      query: route('/predictions/mlp?envelope=test/wrap'),
      escaped: route('/predictions/ml%70'),
      trailingSlash: route('/predictions/mlp/'),
    }).toEqual({ get: undefined, versioned: undefined, versionedOip: undefined, query: undefined, escaped: undefined, trailingSlash: undefined });
  });

  it('leaves names that are not registered models (workflows, unknown names) to the framework', () => {
    expect([route('/predictions/ocr'), route('/v2/models/ocr/infer')]).toEqual([undefined, undefined]);
  });

  it('leaves envelopes, asked for or declared by the model, to the framework', () => {
    expect([route('/predictions/mlp', { ...JSON_BODY, 'x-sluice-envelope': 'test/wrap' }), route('/predictions/wrapped')]).toEqual([undefined, undefined]);
  });

  it('leaves bodies that are not JSON (or OIP binary) to the framework', () => {
    expect([
      route('/predictions/mlp', { 'content-type': 'text/plain', 'content-length': '12' }),
      route('/predictions/mlp', { 'content-length': '12' }),
      route('/v2/models/mlp/infer', { 'content-type': 'application/octet-stream', 'content-length': '12' }),
    ]).toEqual([undefined, undefined, undefined]);
  });

  it('leaves bodies without a declared length, and bodies over the limit, to the framework', () => {
    expect([
      route('/predictions/mlp', { 'content-type': 'application/json' }),
      route('/predictions/mlp', { 'content-type': 'application/json', 'content-length': '12', 'transfer-encoding': 'chunked' }),
      route('/predictions/mlp', { 'content-type': 'application/json', 'content-length': String(LIMIT + 1) }),
    ]).toEqual([undefined, undefined, undefined]);
    expect(route('/predictions/mlp', { 'content-type': 'application/json', 'content-length': String(LIMIT) })).toBeDefined();
  });
});

describe('shadowsLaneRoute', () => {
  it('is true for POST routes of the lane routes\' shape, fixed or with parameters, and false for the rest', () => {
    expect({
      fixedPredictions: shadowsLaneRoute('POST', '/predictions/special'),
      paramInfer: shadowsLaneRoute('POST', '/v2/models/:name/infer'),
      get: shadowsLaneRoute('GET', '/predictions/special'),
      deeper: shadowsLaneRoute('POST', '/predictions/special/extra'),
      other: shadowsLaneRoute('POST', '/hello/:name'),
    }).toEqual({ fixedPredictions: true, paramInfer: true, get: false, deeper: false, other: false });
  });

  it('is true for a PUT to /predictions/{model}, which the lane takes, and false for a PUT to OIP infer, which it does not', () => {
    expect([shadowsLaneRoute('PUT', '/predictions/:name'), shadowsLaneRoute('PUT', '/v2/models/:name/infer')]).toEqual([true, false]);
  });
});
