import { describe, expect, it } from '@jest/globals';
import { objectProblems, type K8sObject } from '../../support/deploy/k8s-validation.js';

const service = (spec: Record<string, unknown>): K8sObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec });

const runtime = (spec: Record<string, unknown>): K8sObject => ({ apiVersion: 'serving.kserve.io/v1alpha1', kind: 'ClusterServingRuntime', metadata: { name: 'rt' }, spec });

/** The checks the deployment tests rely on refuse what they are meant to refuse. */
describe('objectProblems', () => {
  it('passes a valid object', () => {
    expect(objectProblems([service({ ports: [{ name: 'http', port: 80 }] })])).toEqual([]);
  });

  it('refuses a value of the wrong type, through the models’ schema validation', () => {
    expect(objectProblems([service({ ports: [{ name: 'http', port: 'eighty' }] })]).join('\n')).toContain('Service/svc: data/spec/ports/0/port must be integer');
  });

  it('refuses a field Kubernetes does not have, which schema validation lets through', () => {
    expect(objectProblems([service({ ports: [{ name: 'http', port: 80, apProtocol: 'http' }] })]).join('\n')).toMatch(
      /^Service\/svc: .*'"apProtocol"' does not exist in type 'IServicePort'/,
    );
  });

  it('refuses an apiVersion and kind it has no model of', () => {
    expect(objectProblems([{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }])).toEqual(['Widget/w: example.com/v1 Widget is not a kind these checks know']);
  });

  it('refuses a KServe runtime without containers', () => {
    expect(objectProblems([runtime({ supportedModelFormats: [{ name: 'onnx' }] })]).join('\n')).toContain("Property 'containers' is missing");
  });

  it('refuses a KServe protocol version KServe does not have', () => {
    expect(objectProblems([runtime({ protocolVersions: ['v3'], containers: [{ name: 'c', image: 'i' }] })]).join('\n')).toContain('"v3"');
  });

  it('refuses an unknown field of a KServe runtime’s container', () => {
    expect(objectProblems([runtime({ containers: [{ name: 'c', image: 'i', argz: [] }] })]).join('\n')).toContain("'\"argz\"' does not exist in type 'IContainer'");
  });
});
