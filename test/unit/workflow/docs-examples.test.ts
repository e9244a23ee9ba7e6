import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../../src/common/package-root.js';
import { createStaticCatalog, loadWorkflow } from '../../../src/workflow/index.js';
import { TEST_HANDLERS, TEST_MODELS } from './support/test-catalog.js';

const doc = readFileSync(join(packageRoot(), 'docs', 'workflows.md'), 'utf8');
const examples = [...doc.matchAll(/```yaml\n(apiVersion:[\s\S]*?)```/g)].map((match, index) => [index, match[1] ?? ''] as const);

const classifier = (name: string): (typeof TEST_MODELS)[number] => ({
  name,
  version: '1',
  inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 4] }],
  outputs: [{ name: 'probs', datatype: 'FP32', shape: [-1, 3] }],
});

const catalog = createStaticCatalog({ models: [...TEST_MODELS, classifier('small-classifier'), classifier('large-classifier')], handlers: TEST_HANDLERS });

describe('docs/workflows.md', () => {
  it('has complete workflow examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
  });

  it.each(examples)('example %i loads without problems or warnings', (_index, text) => {
    expect(loadWorkflow(text, { file: 'docs/workflows.md', catalog }).warnings).toEqual([]);
  });
});
