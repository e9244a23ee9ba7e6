/**
 * `npm run bench:workflow`: what the workflow executor adds over calling the same handlers directly. A
 * chain of 10 trivial handler nodes (each adds 1 to a number) runs in this process, no HTTP, many times;
 * the same 10 handler calls made one after the other are the baseline. Target: the chain adds at most
 * 0.5 ms at p50 in total.
 *
 *   npm run bench:workflow -- [--iterations 20000] [--json FILE]
 */
import { writeFile } from 'node:fs/promises';
import type { NodeHandler } from '../src/sdk/index.js';
import { createStaticCatalog, executeWorkflow, loadWorkflow, type WorkflowServices } from '../src/workflow/index.js';
import { createLogger, lineSink } from '../src/telemetry/logging/pino-logger.js';
import { parseBenchArgs } from './bench-args.js';

const CHAIN = 10;
const TARGET_MS = 0.5;

const values = parseBenchArgs('npm run bench:workflow --', { iterations: { type: 'string', default: '20000' }, json: { type: 'string' } });
const iterations = Number(values.iterations);

const step: NodeHandler = {
  name: 'bench/step',
  inputs: ['value'],
  outputs: { value: {} },
  run: (inputs) => Promise.resolve({ value: (inputs['value'] as number) + 1 }),
};

const nodes = Array.from({ length: CHAIN }, (_, i) => {
  const source = i === 0 ? '$request.value' : `step${i - 1}.value`;
  return `  step${i}: { handler: bench/step, inputs: { value: ${source} } }`;
});
const text = [
  'apiVersion: sluice/v1',
  'kind: Workflow',
  'metadata: { name: chain, version: "1" }',
  'inputs: { value: { type: number } }',
  'nodes:',
  ...nodes,
  `outputs: { value: step${CHAIN - 1}.value }`,
  '',
].join('\n');

const { plan } = loadWorkflow(text, { file: 'chain.yaml', catalog: createStaticCatalog({ handlers: [step] }) });
const logger = createLogger('silent', lineSink(() => undefined));
const services: WorkflowServices = {
  models: { infer: () => Promise.reject(new Error('no models in this benchmark')) },
  handler: (name) => (name === step.name ? step : undefined),
  workflow: () => undefined,
  logger,
};
const context = { workflow: 'chain', node: 'direct', logger, signal: new AbortController().signal, config: {} };

async function direct(): Promise<number> {
  let value = 0;
  for (let i = 0; i < CHAIN; i++) value = (await step.run({ value }, context))['value'] as number;
  return value;
}

async function viaWorkflow(): Promise<number> {
  const result = await executeWorkflow(plan, { value: 0 }, services);
  return result.outputs['value'] as number;
}

async function measure(run: () => Promise<number>): Promise<{ p50Ms: number; p99Ms: number }> {
  for (let i = 0; i < Math.min(2000, iterations); i++) {
    if ((await run()) !== CHAIN) throw new Error('wrong answer');
  }
  const samples = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run();
    samples[i] = performance.now() - start;
  }
  samples.sort();
  return { p50Ms: samples[Math.floor(iterations * 0.5)] ?? 0, p99Ms: samples[Math.floor(iterations * 0.99)] ?? 0 };
}

const baseline = await measure(direct);
const workflow = await measure(viaWorkflow);
const added = workflow.p50Ms - baseline.p50Ms;
const us = (ms: number): string => `${(ms * 1000).toFixed(1)} µs`;
process.stdout.write(`\nchain of ${CHAIN} trivial handler nodes, ${iterations} runs each, in process\n\n`);
process.stdout.write(`direct calls   p50 ${us(baseline.p50Ms)}  p99 ${us(baseline.p99Ms)}\n`);
process.stdout.write(`workflow       p50 ${us(workflow.p50Ms)}  p99 ${us(workflow.p99Ms)}\n`);
process.stdout.write(`added by the workflow at p50: ${us(added)} (${us(added / CHAIN)} per node)\n\n`);
process.stdout.write(`${added <= TARGET_MS ? 'PASS' : 'FAIL'}  chain of ${CHAIN} adds ≤ ${TARGET_MS} ms at p50: ${us(added)}\n`);
if (values.json !== undefined) {
  await writeFile(values.json, JSON.stringify({ date: new Date().toISOString(), iterations, baseline, workflow, addedMs: added }, null, 2));
}
