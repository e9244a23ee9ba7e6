import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { documentationFiles } from '../../support/docs/doc-files.js';
import { headingAnchors, headingAnchor, markdownLinks } from '../../support/docs/markdown-text.js';

const root = packageRoot();
const files = documentationFiles();
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

/** Every link of `file` that points inside the repository and leads nowhere, as `file:line → target (why)`. */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const { target, line } of markdownLinks(read(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
    const where = `${file}:${line} → ${target}`;
    if (resolved.startsWith('..') || !existsSync(join(root, resolved))) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith('.md') || statSync(join(root, resolved)).isDirectory()) {
      broken.push(`${where} (an anchor into a file that is not Markdown)`);
    } else if (!headingAnchors(read(resolved)).has(anchor)) {
      broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

describe('links between the documentation pages', () => {
  it('reads the pages a reader is sent to', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/performance.md', 'bench/HISTORY.md', 'plugins/ocr/README.md']));
  });

  it.each(files)('%s links only to files and headings that exist', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});

describe('heading anchors', () => {
  it.each([
    ['GPU: ResNet-50 on an NVIDIA H200', 'gpu-resnet-50-on-an-nvidia-h200'],
    ['`model.yaml`', 'modelyaml'],
    ["2026-11-30, night: ONNX Runtime's threads stop spinning between runs", '2026-11-30-night-onnx-runtimes-threads-stop-spinning-between-runs'],
    ['Fan-out (`forEach`)', 'fan-out-foreach'],
  ])('are spelled as GitHub spells them: %s → %s', (heading, anchor) => {
    expect(headingAnchor(heading)).toBe(anchor);
  });

  it('number a repeated heading', () => {
    expect([...headingAnchors('# A\n## B\n## B\n```\n## B\n```\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('include the ids of anchor tags', () => {
    expect([...headingAnchors('<a id="models-not-loaded"></a>A version…\n')]).toEqual(['models-not-loaded']);
  });
});
