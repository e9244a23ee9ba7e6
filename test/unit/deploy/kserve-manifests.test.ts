import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { loadAll } from 'js-yaml';
import { parseStartFlags } from '../../../src/cli/start-flags.js';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { objectProblems, type K8sObject } from '../../support/deploy/k8s-validation.js';
import type { IClusterServingRuntime, IInferenceService } from '../../support/deploy/kserve-types.js';

const KSERVE_DIR = join(packageRoot(), 'deploy', 'kserve');

function objectsOf(file: string): K8sObject[] {
  return loadAll(readFileSync(join(KSERVE_DIR, file), 'utf8')).filter((doc) => doc !== null) as K8sObject[];
}

const runtime = objectsOf('cluster-serving-runtime.yaml')[0] as unknown as IClusterServingRuntime;
const services = objectsOf('inference-service.yaml') as unknown as IInferenceService[];
const container = runtime.spec.containers[0];

describe('the KServe runtime and InferenceService examples', () => {
  it('hold fields of KServe’s CRDs only, of the right types, with the required ones', () => {
    expect(objectProblems([...objectsOf('cluster-serving-runtime.yaml'), ...objectsOf('inference-service.yaml')])).toEqual([]);
  });

  it('declare the onnx format and the v1, v2 and grpc-v2 protocols', () => {
    expect({ formats: runtime.spec.supportedModelFormats?.map((f) => f.name), protocols: runtime.spec.protocolVersions }).toEqual({ formats: ['onnx'], protocols: ['v1', 'v2', 'grpc-v2'] });
  });

  it('pass args that Sluice reads as: serve /mnt/models under the InferenceService’s name, HTTP on 8080, gRPC on 8081, management aside', () => {
    const [command, ...flags] = (container?.args ?? []).map((arg) => arg.replace('{{.Name}}', 'digits'));
    expect({ command, overrides: parseStartFlags(flags).overrides, foreground: parseStartFlags(flags).foreground }).toEqual({
      command: 'start',
      overrides: { modelDir: '/mnt/models', modelName: 'digits', inference: { port: 8080 }, grpc: { inference: { port: 8081 } }, management: { port: 8085 } },
      foreground: true,
    });
  });

  it('route gRPC to the port the runtime tells Sluice to serve gRPC on', () => {
    const grpc = services.find((s) => s.spec.predictor.model.protocolVersion === 'grpc-v2');
    expect(grpc?.spec.predictor.model.ports).toEqual([{ name: 'h2c', protocol: 'TCP', containerPort: 8081 }]);
  });

  it('name the runtime in every InferenceService', () => {
    expect(services.map((s) => s.spec.predictor.model.runtime)).toEqual([runtime.metadata.name, runtime.metadata.name]);
  });
});
