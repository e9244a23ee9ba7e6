import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { DEFAULT_CONFIG } from '../../src/config/index.js';
import { packModelArchive } from '../../src/model-store/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const README = readFileSync(join(packageRoot(), 'README.md'), 'utf8');
/** Shell blocks the README marks as runnable, in order. */
const RUNNABLE = [...README.matchAll(/<!-- runnable -->\n```bash\n([\s\S]*?)```/g)].map((m) => m[1]!);

function run(script: string, cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-e', '-c', script], { cwd, env: { PATH: process.env['PATH'], CURL_HOME: cwd, HOME: cwd }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, output: stdout + stderr });
    });
  });
}

/**
 * Every curl in the README works as printed: each runnable block runs, in README order, against a real
 * server whose ports replace 8080/8081/8082, with the default auth (management keys read from the key
 * file, as the README shows). curl is made to fail on HTTP errors through a .curlrc.
 */
describe('README examples', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick', 'mlp', 'ppocr-det', 'ppocr-rec'],
      // As `npm start` runs: token-auth guards the management API, keys in <dir>/.sluice/key_file.json.
      auth: { management: DEFAULT_CONFIG.auth.management },
      prepare: async (store, dir) => {
        await mkdir(join(dir, 'workflows'));
        for (const file of ['iris-second-opinion.yaml', 'torchserve-iris.yaml', 'torchserve-iris.js', 'ocr.yaml']) {
          await copyFile(join(packageRoot(), 'workflows', file), join(dir, 'workflows', file));
        }
        // The README's paths are the repository's: the OCR sample page is sent from examples/ocr/.
        await mkdir(join(dir, 'examples', 'ocr'), { recursive: true });
        await copyFile(join(packageRoot(), 'examples', 'ocr', 'page.png'), join(dir, 'examples', 'ocr', 'page.png'));
        await packModelArchive(join(store, 'iris'), join(store, 'iris-1.0.sluice'));
        await writeFile(join(dir, '.curlrc'), '--fail-with-body\n--silent\n--show-error\n');
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('marks every curl command as runnable', () => {
    const curls = README.split('\n').filter((line) => line.startsWith('curl '));
    const runnable = RUNNABLE.flatMap((block) => block.split('\n')).filter((line) => line.startsWith('curl '));
    expect(curls.length).toBeGreaterThan(20);
    expect(runnable).toEqual(curls);
  });

  it('needs the management key the README reads from the key file', async () => {
    expect((await fetch(`${t.management}/models`)).status).toBe(401);
  });

  it('runs every runnable block successfully, in order', async () => {
    const port = (url: string): string => new URL(url).host;
    for (const block of RUNNABLE) {
      const script = block
        .replaceAll('127.0.0.1:8080', port(t.inference))
        .replaceAll('127.0.0.1:8081', port(t.management))
        .replaceAll('127.0.0.1:8082', port(t.metrics));
      const { code, output } = await run(script, t.dir);
      expect({ block, code, output: code === 0 ? '' : output }).toEqual({ block, code: 0, output: '' });
    }
  });
});
