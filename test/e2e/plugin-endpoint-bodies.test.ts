import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writePluginFolder } from '../support/plugin-folder.js';
import { makeTempDir } from '../support/temp-dir.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Endpoints answering each kind of body: `GET /bodies/<kind>`. */
const SOURCE = `
const bodies = {
  float32: () => new Float32Array([1.5, -2]),
  'array-buffer': () => new Uint8Array([1, 2, 3]).buffer,
  'data-view': () => new DataView(new Uint8Array([9, 8, 7, 6, 5]).buffer, 1, 3),
  'bigint64': () => new BigInt64Array([-1n]),
  'typed-png': () => new Uint16Array([0x0201]),
  json: () => ({ values: [1, 2] }),
};
export default {
  register(c) {
    for (const [kind, body] of Object.entries(bodies)) {
      const contentType = kind === 'typed-png' ? { contentType: 'image/png' } : {};
      c.endpoint({ name: kind, api: 'inference', method: 'GET', path: '/bodies/' + kind, handle: async () => ({ body: body(), ...contentType }) });
    }
  },
};
`;
const KINDS = ['float32', 'array-buffer', 'data-view', 'bigint64', 'typed-png', 'json'];

describe('plugin endpoint answers with binary bodies', () => {
  let t: TestServer;

  beforeAll(async () => {
    const temp = await makeTempDir('sluice-plugins-');
    await writePluginFolder(join(temp.dir, 'bodies'), { name: 'bodies', provides: KINDS.map((name) => ({ point: 'endpoint', name })) }, SOURCE);
    const server = await startTestServer({ demoModels: ['iris'], config: { plugins: [{ path: join(temp.dir, 'bodies') }] } });
    t = { ...server, close: async () => { await server.close(); await temp.cleanup(); } };
  });
  afterAll(() => t.close());

  async function fetched(kind: string): Promise<{ status: number; type: string | null; bytes: number[] }> {
    const res = await fetch(`${t.inference}/bodies/${kind}`);
    return { status: res.status, type: res.headers.get('content-type'), bytes: [...new Uint8Array(await res.arrayBuffer())] };
  }

  it('sends a Float32Array as its bytes, as application/octet-stream', async () => {
    expect(await fetched('float32')).toEqual({ status: 200, type: 'application/octet-stream', bytes: [...new Uint8Array(new Float32Array([1.5, -2]).buffer)] });
  });

  it('sends an ArrayBuffer as its bytes', async () => {
    expect(await fetched('array-buffer')).toEqual({ status: 200, type: 'application/octet-stream', bytes: [1, 2, 3] });
  });

  it('sends only the bytes a DataView sees of its buffer', async () => {
    expect(await fetched('data-view')).toEqual({ status: 200, type: 'application/octet-stream', bytes: [8, 7, 6] });
  });

  it('sends a BigInt64Array as its bytes, which JSON could not carry', async () => {
    expect(await fetched('bigint64')).toEqual({ status: 200, type: 'application/octet-stream', bytes: [255, 255, 255, 255, 255, 255, 255, 255] });
  });

  it('sends a typed array with the content type the endpoint gives', async () => {
    expect(await fetched('typed-png')).toEqual({ status: 200, type: 'image/png', bytes: [1, 2] });
  });

  it('still sends other bodies as JSON', async () => {
    const answer = await fetched('json');
    expect({ ...answer, bytes: Buffer.from(answer.bytes).toString('utf8') }).toEqual({ status: 200, type: 'application/json; charset=utf-8', bytes: '{"values":[1,2]}' });
  });
});
