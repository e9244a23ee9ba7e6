import { chmod, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { dump } from 'js-yaml';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import { freePort } from '../support/cli-process.js';
import { describeWithTools } from '../support/deploy/deploy-tools.js';
import { objectOf, renderChart, RELEASE, type Rendered } from '../support/deploy/helm-chart.js';
import { buildSluiceImage, podman } from '../support/deploy/podman.js';
import { succeeded } from '../support/deploy/run-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson } from '../support/test-server.js';

// Building the image, then the pod's start: minutes on a busy machine.
jest.setTimeout(300_000);

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const POD = `${RELEASE.name}-sluice-pod-0`;
const CONTAINER = `${POD}-sluice`;

/**
 * The chart's Deployment run by `podman kube play`, which takes its pod template: the volumes (ConfigMap,
 * emptyDirs), the security context, the args and ports. podman does not run Kubernetes' probes (it turns a
 * liveness probe into a health check that needs curl and systemd), nor preStop hooks, so the tests run them
 * as the kubelet would, from the rendered manifest. podman 4.3 (Debian 12's) fails to start a pod with an
 * init container (it removes the init container while it still runs), so the pod serves the models baked
 * into the image, and the init container of modelStore.source initContainer is run on its own, as rendered.
 */
describeWithTools('the chart’s Deployment run by podman kube play', ['helm', 'podman'], () => {
  let rendered: Rendered;
  let container: IContainer;
  let podIp = '';
  let kubeFile = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();

  /** The container port a probe or Service names. */
  const portNamed = (name: number | string | undefined): number => {
    const found = typeof name === 'number' ? name : container.ports?.find((p) => p.name === name)?.containerPort;
    if (found === undefined) throw new Error(`no container port ${String(name)}`);
    return found;
  };
  const probeUrl = (probe: IProbe | undefined): string => `http://${podIp}:${portNamed(probe?.httpGet?.port)}${probe?.httpGet?.path ?? '?'}`;

  /** Probes as the kubelet does: every periodSeconds, until it passes or has failed failureThreshold times. */
  async function probeUntilPassing(probe: IProbe | undefined): Promise<void> {
    const period = (probe?.periodSeconds ?? 10) * 1000;
    for (let failures = 0; failures < (probe?.failureThreshold ?? 3); failures++) {
      const status = await fetch(probeUrl(probe), { signal: AbortSignal.timeout((probe?.timeoutSeconds ?? 1) * 1000) }).then(
        (response) => response.status,
        () => 0,
      );
      if (status >= 200 && status < 400) return;
      await new Promise((resolve) => setTimeout(resolve, period));
    }
    const logs = await podman(['logs', CONTAINER]);
    throw new Error(`${probeUrl(probe)} failed ${probe?.failureThreshold ?? 3} times: the kubelet would restart the container\n${logs.stdout}${logs.stderr}`);
  }

  beforeAll(async () => {
    await buildSluiceImage();
    const ports = { inference: await freePort(), management: await freePort(), metrics: await freePort(), grpcInference: await freePort(), grpcManagement: await freePort() };
    rendered = await renderChart({
      // podman publishes every container port on the host, so one pod, on ports nothing else uses.
      replicaCount: 1,
      image: { repository: 'localhost/sluice', tag: 'test', pullPolicy: 'Never' },
      ports,
      modelStore: { source: 'image', models: ['iris'] },
    });
    container = objectOf(rendered.objects, 'Deployment').spec?.template.spec?.containers[0] as IContainer;
    const temp = await makeTempDir('sluice-kube-play-');
    kubeFile = join(temp.dir, 'kube.yaml');
    // kube play takes Pods, Deployments, PersistentVolumeClaims and the ConfigMaps they mount.
    await writeFile(kubeFile, rendered.objects.filter((o) => o.kind === 'Deployment' || o.kind === 'ConfigMap').map((o) => dump(o)).join('---\n'));
    cleanup = async () => {
      await podman(['kube', 'down', kubeFile]);
      const volumes = objectOf(rendered.objects, 'Deployment').spec?.template.spec?.volumes ?? [];
      await podman(['volume', 'rm', '--force', ...volumes.map((v) => v.configMap?.name ?? v.name)]);
      await temp.cleanup();
    };
    succeeded('podman kube play', await podman(['kube', 'play', kubeFile]));
    const infra = succeeded('podman pod inspect', await podman(['pod', 'inspect', '--format', '{{.InfraContainerID}}', POD])).trim();
    podIp = succeeded('podman inspect', await podman(['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', infra])).trim();
    await probeUntilPassing(container.startupProbe);
  }, 45 * 60_000);

  afterAll(async () => {
    await cleanup();
  });

  it('runs the container as the Deployment says: uid 1000, read-only root file system, no new privileges', async () => {
    const inspected = succeeded('podman inspect', await podman(['inspect', '--format', '{{.Config.User}} {{.HostConfig.ReadonlyRootfs}} {{json .HostConfig.SecurityOpt}}', CONTAINER]));
    expect(inspected).toMatch(/^1000:1000 true .*no-new-privileges/);
  });

  it('passes its readiness probe', async () => {
    await probeUntilPassing(container.readinessProbe);
    expect(await requestJson(probeUrl(container.readinessProbe))).toMatchObject({ status: 200, body: { ready: true } });
  });

  it('passes its liveness probe', async () => {
    expect((await requestJson(probeUrl(container.livenessProbe))).status).toBe(200);
  });

  it('answers a prediction on the port the Service sends inference to', async () => {
    const servicePort = objectOf(rendered.objects, 'Service').spec?.ports?.find((p) => p.name === 'http');
    expect(await requestJson(`http://${podIp}:${portNamed(servicePort?.targetPort)}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({
      status: 200,
      body: { label: 'setosa' },
    });
  });

  it('fills /models with the init container modelStore.source initContainer renders, as its user, on a read-only root', async () => {
    const init = objectOf((await renderChart({ image: { repository: 'localhost/sluice', tag: 'test' }, modelStore: { source: 'initContainer' } })).objects, 'Deployment').spec?.template
      .spec?.initContainers?.[0];
    const temp = await makeTempDir('sluice-init-container-');
    try {
      await chmod(temp.dir, 0o777);
      const [entrypoint, ...args] = init?.command ?? [];
      const run = await podman([
        'run',
        '--rm',
        '--user',
        '1000:1000',
        '--read-only',
        '--security-opt',
        'no-new-privileges',
        '--cap-drop',
        'ALL',
        '--volume',
        `${temp.dir}:${init?.volumeMounts?.find((m) => m.name === 'models')?.mountPath ?? '?'}`,
        '--entrypoint',
        entrypoint ?? '?',
        init?.image ?? '?',
        ...args,
      ]);
      expect({ code: run.code, models: (await readdir(temp.dir)).sort() }).toEqual({ code: 0, models: ['cnn', 'iris', 'iris-quick', 'mlp', 'ppocr-det', 'ppocr-rec'] });
    } finally {
      await rm(temp.dir, { recursive: true, force: true });
    }
  });

  it('has in its image what its preStop hook runs', async () => {
    const command = container.lifecycle?.preStop?.exec?.command ?? [];
    expect((await podman(['exec', CONTAINER, ...command])).code).toBe(0);
  });

  it('stops within terminationGracePeriodSeconds: SIGTERM, a drain, exit 0 before podman would kill it', async () => {
    const grace = objectOf(rendered.objects, 'Deployment').spec?.template.spec?.terminationGracePeriodSeconds ?? 30;
    succeeded('podman pod stop', await podman(['pod', 'stop', '--time', String(grace), POD], (grace + 60) * 1000));
    const state = succeeded('podman inspect', await podman(['inspect', '--format', '{{.State.ExitCode}}', CONTAINER])).trim();
    const logs = await podman(['logs', CONTAINER]);
    expect({ exitCode: state, drained: logs.stdout.includes('"drained":true,"msg":"stopped"') }).toEqual({ exitCode: '0', drained: true });
  });
});
