import { describe, expect, it } from '@jest/globals';
import { isSluiceError, type SluiceError } from '../../../../src/sdk/errors/index.js';
import { loadWorkflow } from '../../../../src/workflow/index.js';
import { testCatalog } from '../support/test-catalog.js';

/** A valid workflow's lines; what a test appends to it comes at line 7. */
const VALID = ['apiVersion: sluice/v1', 'kind: Workflow', 'metadata: { name: w }', 'nodes:', '  a: { handler: text/upper, inputs: { text: { value: x } } }', 'outputs: { text: a.text }'];

const ALLOWED = 'allowed here: apiVersion, kind, metadata, responseTimeoutMs, defaults, inputs, nodes, outputs';

function refusal(extra: readonly string[]): SluiceError {
  try {
    loadWorkflow([...VALID, ...extra, ''].join('\n'), { file: 'w.yaml', catalog: testCatalog() });
  } catch (error) {
    if (isSluiceError(error, 'SLUICE_WORKFLOW_INVALID')) return error;
    throw error;
  }
  throw new Error('the workflow was accepted');
}

describe('the problem report of a refused workflow file', () => {
  it('quotes a long unknown key by its first 39 characters, in the path and in the message', () => {
    const key = 'k'.repeat(10_000);
    expect(refusal([`${key}: 1`]).message).toBe(
      `workflow w.yaml is invalid (1 problem):\nw.yaml:7:1: error: ${'k'.repeat(39)}…: unknown key \`${'k'.repeat(39)}…\`; ${ALLOWED}`,
    );
  });

  it('stays a few kilobytes for 1 MiB of unknown keys: the first 20 problems, then how many more', () => {
    const keys = Array.from({ length: 500 }, (_, i) => `${String(i).padStart(3, '0')}${'k'.repeat(2080)}`);
    const extra = keys.map((key) => `${key}: 1`);
    expect(extra.join('\n').length).toBeGreaterThan(1_000_000);
    const error = refusal(extra);
    const shown = (key: string): string => `${key.slice(0, 39)}…`;
    expect(error.message).toBe(
      [
        'workflow w.yaml is invalid (500 problems):',
        ...keys.slice(0, 20).map((key, i) => `w.yaml:${7 + i}:1: error: ${shown(key)}: unknown key \`${shown(key)}\`; ${ALLOWED}`),
        '… and 480 more',
      ].join('\n'),
    );
    expect(error.message.length).toBeLessThan(8192);
    expect(JSON.stringify(error.details).length).toBeLessThan(8192);
  });
});
