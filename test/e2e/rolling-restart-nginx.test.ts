import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { freePort, startServerProcess, type ServerProcess } from '../support/cli-process.js';
import { describeWithTools, findTool } from '../support/deploy/deploy-tools.js';
import { makeTempDir } from '../support/temp-dir.js';

// Four Sluice start-ups and two drains on a busy machine.
jest.setTimeout(300_000);

const SETOSA = [5.1, 3.5, 1.4, 0.2];
/** Clients sending predictions through nginx, one request after another each, for the whole test. */
const CLIENTS = 4;

/** What one request through nginx got. */
interface Answer {
  readonly status: number;
  readonly label: unknown;
}

/** The nginx configuration of a load balancer in front of `upstreams`, with everything it writes in `dir`. */
function nginxConfig(dir: string, port: number, upstreams: readonly number[]): string {
  return `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/client-body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream sluice {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://sluice;
      # A replica that refuses the connection (its ports closed) or answers 503 (starting or shutting down)
      # is skipped for that request; predictions may be sent again, they change nothing. No replica is
      # marked down (max_fails=0): with two, one marked down after a stray error would leave none.
      proxy_next_upstream error timeout http_502 http_503 non_idempotent;
      proxy_next_upstream_tries ${upstreams.length};
    }
  }
}
`;
}

/**
 * Two Sluice servers behind nginx (the Debian package), restarted one after the other as a rolling update
 * does, while clients keep sending predictions through nginx: each server is stopped with SIGTERM (drain
 * delay, then closed ports and a drain of what it holds) and started again on its port, and the next one is
 * stopped only once the new one answers its readiness route.
 */
describeWithTools('a rolling restart behind nginx', ['nginx'], () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let nginx: ChildProcess | undefined;
  const servers: ServerProcess[] = [];
  let balancer = '';
  const ports: number[] = [];

  /** Writes a replica's folder (iris, its port) and starts it. */
  async function startReplica(index: number): Promise<ServerProcess> {
    const home = join(dir, `replica-${index}`);
    const lines = [
      `inference: { port: ${ports[index] ?? 0} }`,
      'management: { port: 0 }',
      'metrics: { port: 0 }',
      'grpc: { enabled: false }',
      'modelStore: ./model-store',
      'snapshot: { enabled: false }',
      'drainDelayMs: 1000',
    ];
    await writeFile(join(home, 'sluice.yaml'), `${lines.join('\n')}\n`);
    const server = startServerProcess([], home);
    servers.push(server);
    await server.waitForLog((l) => l['msg'] === 'Sluice is serving');
    return server;
  }

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-rolling-'));
    for (const index of [0, 1]) {
      ports.push(await freePort());
      await mkdir(join(dir, `replica-${index}`, 'model-store'), { recursive: true });
      await cp(join(packageRoot(), 'model-store', 'iris'), join(dir, `replica-${index}`, 'model-store', 'iris'), { recursive: true });
    }
    await startReplica(0);
    await startReplica(1);
    const port = await freePort();
    await writeFile(join(dir, 'nginx.conf'), nginxConfig(dir, port, ports));
    nginx = spawn(findTool('nginx') ?? 'nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    balancer = `http://127.0.0.1:${port}`;
    while ((await fetch(`${balancer}/ping`).then((r) => r.status, () => 0)) !== 200) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited ${String(nginx.exitCode)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx?.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await cleanup();
  });

  it('answers every request, and answers it right, while both servers are restarted one after the other', async () => {
    const answers: Answer[] = [];
    let sending = true;
    const ask = async (): Promise<Answer> => {
      try {
        const response = await fetch(`${balancer}/predictions/iris`, { method: 'POST', body: JSON.stringify(SETOSA), headers: { 'content-type': 'application/json' } });
        const text = await response.text();
        let label: unknown = text;
        try {
          label = (JSON.parse(text) as { label?: unknown }).label;
        } catch {
          // Not JSON: the text says what went wrong.
        }
        return { status: response.status, label };
      } catch (error) {
        return { status: 0, label: error instanceof Error ? error.message : String(error) };
      }
    };
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (sending) answers.push(await ask());
    });
    const answeredDuring: number[] = [];
    for (const index of [0, 1]) {
      const old = servers[index];
      if (!old) throw new Error(`no replica ${index}`);
      const before = answers.length;
      old.child.kill('SIGTERM');
      expect(await old.exited).toBe(0);
      servers[index] = await startReplica(index);
      const url = `http://127.0.0.1:${ports[index] ?? 0}/v2/health/ready`;
      while ((await fetch(url).then((r) => r.status, () => 0)) !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      answeredDuring.push(answers.length - before);
    }
    // Some more requests with both new servers in.
    const settled = answers.length;
    while (answers.length < settled + 20) await new Promise((resolve) => setTimeout(resolve, 50));
    sending = false;
    await Promise.all(clients);
    const wrong = answers.filter((a) => a.status !== 200 || a.label !== 'setosa');
    // nginx's own account of what it could not pass on, to say why when a request was lost.
    const nginxErrors = wrong.length === 0 ? '' : (await readFile(join(dir, 'error.log'), 'utf8')).split('\n').slice(-20).join('\n');
    expect({ wrong, nginxErrors, answeredWhileEachRestarted: answeredDuring.map((count) => count > 0) }).toEqual({ wrong: [], nginxErrors: '', answeredWhileEachRestarted: [true, true] });
  });
});
