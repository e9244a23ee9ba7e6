import { join } from 'node:path';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { runProcess, succeeded, type ProcessResult } from './run-process.js';

const SCRIPTS = join(packageRoot(), 'deploy', 'scripts');

/** The tag the tests build Sluice's image under. */
export const SLUICE_TEST_IMAGE = 'localhost/sluice:test';

/** Runs podman as the deploy scripts set it up (runc, the repository's own image storage). */
export function podman(args: readonly string[], timeoutMs = 120_000): Promise<ProcessResult> {
  return runProcess('bash', ['-c', 'source "$0" && exec podman "$@"', join(SCRIPTS, 'podman-env.sh'), ...args], { timeoutMs });
}

let built: Promise<string> | undefined;

/**
 * Builds Sluice's image from the repository's Dockerfile (deploy/scripts/build-image.sh: the stand-in base
 * image first where none is there) once per test process; podman's layer cache makes a later build of the
 * same tree quick. Resolves with the script's report (the image's size).
 */
export function buildSluiceImage(): Promise<string> {
  built ??= runProcess('bash', [join(SCRIPTS, 'build-image.sh'), SLUICE_TEST_IMAGE], { timeoutMs: 40 * 60_000 }).then((result) => succeeded('deploy/scripts/build-image.sh', result));
  return built;
}

/** A container started by {@link startContainer}. */
export interface Container {
  readonly name: string;
  /** What it printed, stdout and stderr together. */
  logs(): Promise<string>;
  /** Sends `signal` to its main process (Sluice, PID 1). */
  signal(signal: NodeJS.Signals): Promise<void>;
  /** Resolves with its exit status once it has stopped. */
  exited(): Promise<number>;
  /** Stops (SIGKILL) and removes it, whatever its state. */
  remove(): Promise<void>;
}

/** How to start a container of Sluice's image. */
export interface ContainerOptions {
  /** Arguments after the image (replacing its CMD). */
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Container port → host port on 127.0.0.1. */
  readonly publish?: Readonly<Record<number, number>>;
  /** `host-path:container-path[:options]`. */
  readonly volumes?: readonly string[];
  /** Further `podman run` options. */
  readonly options?: readonly string[];
  readonly image?: string;
}

let started = 0;

/** Starts a detached container of Sluice's image. */
export async function startContainer(options: ContainerOptions = {}): Promise<Container> {
  const name = `sluice-test-${process.pid}-${++started}`;
  const args = [
    'run',
    '--detach',
    '--name',
    name,
    ...Object.entries(options.env ?? {}).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
    ...Object.entries(options.publish ?? {}).flatMap(([container, host]) => ['--publish', `127.0.0.1:${host}:${container}`]),
    ...(options.volumes ?? []).flatMap((volume) => ['--volume', volume]),
    ...(options.options ?? []),
    options.image ?? SLUICE_TEST_IMAGE,
    ...(options.args ?? []),
  ];
  succeeded('podman run', await podman(args));
  return containerNamed(name);
}

/** A handle on the container called `name`. */
export function containerNamed(name: string): Container {
  return {
    name,
    logs: async () => {
      const result = await podman(['logs', name]);
      return result.stdout + result.stderr;
    },
    signal: async (signal) => {
      succeeded(`podman kill --signal ${signal}`, await podman(['kill', '--signal', signal, name]));
    },
    exited: async () => {
      const output = succeeded('podman wait', await podman(['wait', name], 10 * 60_000));
      return Number(output.trim());
    },
    remove: async () => {
      await podman(['rm', '--force', '--time', '0', name]);
    },
  };
}

/**
 * Resolves once `url` answers 200, polling it. Rejects, quoting the container's output, when the container
 * stops first: a server that cannot start fails its test at once, saying why.
 */
export async function untilAnswers(url: string, container: Container): Promise<void> {
  for (;;) {
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    const state = await podman(['inspect', '--format', '{{.State.Running}}', container.name]);
    if (state.stdout.trim() !== 'true') throw new Error(`${container.name} stopped before ${url} answered:\n${await container.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
