/**
 * The KServe objects Sluice ships (deploy/kserve/), typed from the fields KServe documents for its CRDs
 * (`serving.kserve.io/v1alpha1` ServingRuntime and ClusterServingRuntime, `v1beta1` InferenceService): the
 * fields a runtime or a predictor of one model uses, not every field of the CRDs. No Kubernetes models
 * package covers KServe, so the objects are checked against these types as the chart's objects are against
 * kubernetes-models': a required field missing, a wrong type or a field these types do not know is refused.
 * Containers and their ports are Kubernetes' own types.
 */
import type { IIoK8sApimachineryPkgApisMetaV1ObjectMeta as IObjectMeta } from '@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { ILocalObjectReference } from 'kubernetes-models/v1/LocalObjectReference';
import type { IToleration } from 'kubernetes-models/v1/Toleration';
import type { IVolume } from 'kubernetes-models/v1/Volume';
import type { IAffinity } from 'kubernetes-models/v1/Affinity';

/** KServe's InferenceServiceProtocol. */
export type InferenceServiceProtocol = 'v1' | 'v2' | 'grpc-v1' | 'grpc-v2';

export interface ISupportedModelFormat {
  name: string;
  version?: string;
  autoSelect?: boolean;
  priority?: number;
}

export interface IServingRuntimeSpec {
  supportedModelFormats?: ISupportedModelFormat[];
  multiModel?: boolean;
  disabled?: boolean;
  protocolVersions?: InferenceServiceProtocol[];
  containers: IContainer[];
  volumes?: IVolume[];
  nodeSelector?: Record<string, string>;
  affinity?: IAffinity;
  tolerations?: IToleration[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  imagePullSecrets?: ILocalObjectReference[];
}

export interface IServingRuntime {
  apiVersion: 'serving.kserve.io/v1alpha1';
  kind: 'ServingRuntime';
  metadata: IObjectMeta;
  spec: IServingRuntimeSpec;
}

export interface IClusterServingRuntime {
  apiVersion: 'serving.kserve.io/v1alpha1';
  kind: 'ClusterServingRuntime';
  metadata: IObjectMeta;
  spec: IServingRuntimeSpec;
}

/** A predictor's model: the container fields are inline, as in KServe's ModelSpec. */
export interface IModelSpec extends Partial<IContainer> {
  modelFormat: { name: string; version?: string };
  runtime?: string;
  runtimeVersion?: string;
  protocolVersion?: InferenceServiceProtocol;
  storageUri?: string;
}

export interface IPredictorSpec {
  model: IModelSpec;
  minReplicas?: number;
  maxReplicas?: number;
  scaleTarget?: number;
  scaleMetric?: 'cpu' | 'memory' | 'concurrency' | 'rps';
  containerConcurrency?: number;
  timeout?: number;
  serviceAccountName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: IToleration[];
}

export interface IInferenceService {
  apiVersion: 'serving.kserve.io/v1beta1';
  kind: 'InferenceService';
  metadata: IObjectMeta;
  spec: { predictor: IPredictorSpec };
}
