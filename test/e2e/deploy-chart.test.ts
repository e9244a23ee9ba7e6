import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it, jest } from '@jest/globals';
import { load as loadYaml } from 'js-yaml';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { validateConfigLayer } from '../../src/config/config-layer-validator.js';
import { describeWithTools } from '../support/deploy/deploy-tools.js';
import { CHART_EXAMPLES_DIR, lintChart, objectOf, renderChart, RELEASE, type Rendered } from '../support/deploy/helm-chart.js';
import { objectProblems, type K8sObject } from '../support/deploy/k8s-validation.js';

// helm and TypeScript's check of every object each take seconds on a busy machine.
jest.setTimeout(180_000);

const FULLNAME = `${RELEASE.name}-sluice`;

const EXAMPLES = readdirSync(CHART_EXAMPLES_DIR)
  .filter((file) => file.endsWith('.yaml'))
  .sort();

function sluiceContainer(objects: readonly K8sObject[]): IContainer {
  const container = objectOf(objects, 'Deployment').spec?.template.spec?.containers.find((c) => c.name === 'sluice');
  if (container === undefined) throw new Error('no sluice container');
  return container;
}

/** The sluice.yaml the chart renders, as Sluice reads it. */
function renderedConfig(objects: readonly K8sObject[]): Record<string, unknown> {
  const text = objectOf(objects, 'ConfigMap').data?.['sluice.yaml'];
  if (text === undefined) throw new Error('the ConfigMap holds no sluice.yaml');
  return loadYaml(text) as Record<string, unknown>;
}

describeWithTools('the Helm chart', ['helm'], () => {
  let defaults: Rendered;
  beforeAll(async () => {
    defaults = await renderChart();
  });

  it('passes helm lint --strict', async () => {
    const lint = await lintChart();
    expect({ code: lint.code, warnings: lint.stdout.split('\n').filter((line) => /\[(WARNING|ERROR)\]/.test(line)) }).toEqual({ code: 0, warnings: [] });
  });

  it('renders its defaults without a word on stderr', () => {
    expect({ code: defaults.code, stderr: defaults.stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('renders the objects a Sluice release needs', () => {
    expect(defaults.objects.map((o) => `${o.apiVersion} ${o.kind}`).sort()).toEqual([
      'apps/v1 Deployment',
      'networking.k8s.io/v1 NetworkPolicy',
      'policy/v1 PodDisruptionBudget',
      'v1 ConfigMap',
      'v1 Service',
      'v1 ServiceAccount',
    ]);
  });

  it('renders objects that validate against the Kubernetes schemas, unknown fields refused', () => {
    expect(objectProblems(defaults.objects)).toEqual([]);
  });

  it.each(EXAMPLES)('renders deploy/helm/examples/%s into valid objects', async (example) => {
    const rendered = await renderChart([join(CHART_EXAMPLES_DIR, example)]);
    expect({ code: rendered.code, stderr: rendered.stderr }).toEqual({ code: 0, stderr: '' });
    expect(objectProblems(rendered.objects)).toEqual([]);
  });

  it('renders HPA, ScaledObject, ServiceMonitor and the management Service from the examples, all valid', async () => {
    const kinds = new Set<string>();
    for (const example of EXAMPLES) for (const object of (await renderChart([join(CHART_EXAMPLES_DIR, example)])).objects) kinds.add(`${object.apiVersion} ${object.kind}`);
    expect([...kinds].filter((kind) => !kind.startsWith('v1 ') && !kind.startsWith('apps/') && !kind.startsWith('policy/') && !kind.startsWith('networking.')).sort()).toEqual([
      'autoscaling/v2 HorizontalPodAutoscaler',
      'keda.sh/v1alpha1 ScaledObject',
      'monitoring.coreos.com/v1 ServiceMonitor',
    ]);
  });

  it.each(EXAMPLES)('renders, for deploy/helm/examples/%s, a sluice.yaml that Sluice accepts', async (example) => {
    const rendered = await renderChart([join(CHART_EXAMPLES_DIR, example)]);
    expect(() => validateConfigLayer(renderedConfig(rendered.objects), 'sluice.yaml')).not.toThrow();
  });

  it('listens where the container ports and the Service say, on every interface', () => {
    const config = renderedConfig(defaults.objects) as { inference: unknown; management: unknown; metrics: unknown; grpc: { inference: unknown; management: unknown } };
    const ports = Object.fromEntries((sluiceContainer(defaults.objects).ports ?? []).map((p): [string, number] => [p.name ?? '', p.containerPort]));
    expect([config.inference, config.grpc.inference, config.metrics, config.management, config.grpc.management]).toEqual(
      ['http', 'grpc', 'metrics', 'mgmt-http', 'mgmt-grpc'].map((name) => ({ host: '0.0.0.0', port: ports[name] })),
    );
  });

  it('names the Service ports and sets their appProtocol: HTTP, gRPC over h2c, metrics; no management port', () => {
    const service = objectOf(defaults.objects, 'Service');
    expect(service.spec?.ports?.map((p) => ({ name: p.name, appProtocol: p.appProtocol, targetPort: p.targetPort }))).toEqual([
      { name: 'http', appProtocol: 'http', targetPort: 'http' },
      { name: 'grpc', appProtocol: 'kubernetes.io/h2c', targetPort: 'grpc' },
      { name: 'metrics', appProtocol: 'http', targetPort: 'metrics' },
    ]);
  });

  it('probes startup and liveness on /v2/health/live and readiness on /v2/health/ready, on the inference port', () => {
    const container = sluiceContainer(defaults.objects);
    expect([container.startupProbe?.httpGet, container.livenessProbe?.httpGet, container.readinessProbe?.httpGet]).toEqual([
      { path: '/v2/health/live', port: 'http' },
      { path: '/v2/health/live', port: 'http' },
      { path: '/v2/health/ready', port: 'http' },
    ]);
  });

  it('gives a pod time to drain: the grace period covers the preStop sleep and Sluice’s shutdownTimeoutMs', () => {
    const pod = objectOf(defaults.objects, 'Deployment').spec?.template.spec;
    const sleep = Number(sluiceContainer(defaults.objects).lifecycle?.preStop?.exec?.command?.[1]);
    const drainSeconds = (renderedConfig(defaults.objects)['shutdownTimeoutMs'] as number) / 1000;
    expect({ sleep, drainSeconds, grace: pod?.terminationGracePeriodSeconds }).toEqual({ sleep: 5, drainSeconds: 30, grace: 5 + 30 + 10 });
  });

  it('follows shutdown.timeoutSeconds in both the grace period and shutdownTimeoutMs', async () => {
    const rendered = await renderChart({ shutdown: { timeoutSeconds: 120, preStopSleepSeconds: 0 } });
    const container = sluiceContainer(rendered.objects);
    expect({
      grace: objectOf(rendered.objects, 'Deployment').spec?.template.spec?.terminationGracePeriodSeconds,
      shutdownTimeoutMs: renderedConfig(rendered.objects)['shutdownTimeoutMs'],
      preStop: container.lifecycle,
    }).toEqual({ grace: 130, shutdownTimeoutMs: 120_000, preStop: undefined });
  });

  it('follows shutdown.notReadyDelaySeconds in Sluice’s drainDelayMs and in the grace period', async () => {
    const rendered = await renderChart({ shutdown: { timeoutSeconds: 30, preStopSleepSeconds: 5, notReadyDelaySeconds: 15 } });
    expect({
      grace: objectOf(rendered.objects, 'Deployment').spec?.template.spec?.terminationGracePeriodSeconds,
      drainDelayMs: renderedConfig(rendered.objects)['drainDelayMs'],
    }).toEqual({ grace: 5 + 15 + 30 + 10, drainDelayMs: 15_000 });
  });

  it('runs as a non-root user on a read-only root file system, with every path Sluice writes on a writable volume', () => {
    const container = sluiceContainer(defaults.objects);
    const pod = objectOf(defaults.objects, 'Deployment').spec?.template.spec;
    const config = renderedConfig(defaults.objects) as { snapshot: { file: string }; plugins: { name: string; config: { keyFile: string } }[] };
    const writable = (container.volumeMounts ?? []).filter((m) => m.readOnly !== true).map((m) => m.mountPath);
    const written = [config.snapshot.file, ...config.plugins.filter((p) => p.name === 'token-auth').map((p) => p.config.keyFile), '/tmp/'];
    expect({
      runAsNonRoot: pod?.securityContext?.runAsNonRoot,
      readOnlyRootFilesystem: container.securityContext?.readOnlyRootFilesystem,
      allowPrivilegeEscalation: container.securityContext?.allowPrivilegeEscalation,
      unwritable: written.filter((path) => !writable.some((mount) => path.startsWith(`${mount}/`))),
    }).toEqual({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, unwritable: [] });
  });

  it('keeps the management ports closed to every pod by default', () => {
    const policy = objectOf(defaults.objects, 'NetworkPolicy');
    const opened = (policy.spec?.ingress ?? []).flatMap((rule) => (rule.ports ?? []).map((p) => p.port));
    expect(opened.sort()).toEqual([7070, 8080, 8082]);
  });

  it('opens the management ports only to the peers networkPolicy.managementFrom names', async () => {
    const peer = { namespaceSelector: { matchLabels: { team: 'ops' } } };
    const rendered = await renderChart({ networkPolicy: { managementFrom: [peer] } });
    const rules = objectOf(rendered.objects, 'NetworkPolicy').spec?.ingress ?? [];
    expect(rules.filter((rule) => rule.ports?.some((p) => p.port === 8081))).toEqual([{ ports: [{ port: 8081, protocol: 'TCP' }, { port: 7071, protocol: 'TCP' }], from: [peer] }]);
  });

  it('mounts a PVC at /models and serves it as the model store when modelStore.source is pvc', async () => {
    const rendered = await renderChart({ modelStore: { source: 'pvc', pvc: { claimName: 'models' } } });
    expect({
      store: renderedConfig(rendered.objects)['modelStore'],
      mount: sluiceContainer(rendered.objects).volumeMounts?.find((m) => m.name === 'models'),
    }).toEqual({ store: '/models', mount: { name: 'models', mountPath: '/models', readOnly: true } });
  });

  it('fills an emptyDir at /models with an init container when modelStore.source is initContainer', async () => {
    const rendered = await renderChart({ modelStore: { source: 'initContainer' } });
    const pod = objectOf(rendered.objects, 'Deployment').spec?.template.spec;
    expect({ init: pod?.initContainers?.map((c) => c.volumeMounts?.find((m) => m.name === 'models')?.mountPath), store: renderedConfig(rendered.objects)['modelStore'] }).toEqual({
      init: ['/models'],
      store: '/models',
    });
  });

  it('leaves replicas to the autoscaler while autoscaling is on', async () => {
    const rendered = await renderChart({ autoscaling: { enabled: true } });
    expect(objectOf(rendered.objects, 'Deployment').spec?.replicas).toBeUndefined();
  });

  it('keeps the jwt-auth key set in a Secret mounted where the rendered sluice.yaml looks for it', async () => {
    const rendered = await renderChart([join(CHART_EXAMPLES_DIR, 'jwt-auth.yaml')]);
    const config = renderedConfig(rendered.objects) as { plugins: { name: string; config: { jwksFile?: string } }[] };
    const jwksFile = config.plugins.find((p) => p.name === 'jwt-auth')?.config.jwksFile ?? '';
    const mount = sluiceContainer(rendered.objects).volumeMounts?.find((m) => m.name === 'auth');
    const secret = objectOf(rendered.objects, 'Secret', `${FULLNAME}-auth`);
    expect({ keys: Object.keys(secret.data ?? {}), inMount: jwksFile.startsWith(`${mount?.mountPath ?? '?'}/`) }).toEqual({ keys: ['jwks.json'], inMount: true });
  });

  it.each([
    ['negative replicas', { replicaCount: -1 }, "at '/replicaCount': minimum: got -1, want 0"],
    ['an unknown auth provider', { auth: { management: 'ldap' } }, "at '/auth/management': value must be one of 'none', 'token-auth', 'jwt-auth'"],
    ['an unknown model source', { modelStore: { source: 's3' } }, "at '/modelStore/source': value must be one of 'image', 'pvc', 'initContainer'"],
    ['a missing model source', { modelStore: { source: null } }, "at '/modelStore': missing property 'source'"],
    ['a PVC source without a claim', { modelStore: { source: 'pvc' } }, "at '/modelStore/pvc/claimName': minLength: got 0, want 1"],
    ['an image source without a path', { modelStore: { image: { path: 'models' } } }, "at '/modelStore/image/path': 'models' does not match pattern '^/'"],
    ['a port out of range', { ports: { inference: 70000 } }, "at '/ports/inference': maximum: got 70,000, want 65,535"],
    ['a probe path that is no path', { probes: { readiness: { path: 'ready' } } }, "at '/probes/readiness/path': 'ready' does not match pattern '^/'"],
    ['an unknown autoscaler', { autoscaling: { kind: 'vpa' } }, "at '/autoscaling/kind': value must be one of 'hpa', 'keda'"],
    ['a misspelt value', { replicas: 3 }, "additional properties 'replicas' not allowed"],
  ])('refuses %s, naming the value', async (_what, values, message) => {
    const rendered = await renderChart(values);
    expect({ code: rendered.code, named: rendered.stderr.includes(message) ? message : rendered.stderr }).toEqual({ code: 1, named: message });
  });

  it.each([
    ['a key of sluice.yaml the chart sets', { config: { modelStore: '/elsewhere' } }, 'config.modelStore is set by the chart from its other values'],
    ['a listener of sluice.yaml', { config: { inference: { port: 9000 } } }, 'config.inference: the chart sets the listeners'],
    ['jwt-auth without a key set', { auth: { inference: 'jwt-auth', jwt: { issuer: 'https://id.example.com/', audience: 'sluice' } } }, 'auth: an API uses jwt-auth, so auth.jwt.jwks'],
    ['a drain delay set in config', { config: { drainDelayMs: 5000 } }, 'config.drainDelayMs is set by the chart from its other values'],
  ])('refuses %s, saying why', async (_what, values, message) => {
    const rendered = await renderChart(values);
    expect({ code: rendered.code, named: rendered.stderr.includes(message) ? message : rendered.stderr }).toEqual({ code: 1, named: message });
  });
});
