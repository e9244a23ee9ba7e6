import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { downloadArchive, type DownloadOptions } from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';

const BODY = Buffer.from('pretend this is a gzip-compressed tar archive');
const ALLOWED = ['http://127\\.0\\.0\\.1:\\d+/.*'];

type Route = (request: IncomingMessage, response: ServerResponse) => void;

let dir: string;
let cleanup: () => Promise<void>;
let server: Server;
let base: string;
let routes: Record<string, Route>;
let requests: string[];

function options(overrides: Partial<DownloadOptions> = {}): DownloadOptions {
  return { maxBytes: 1024, timeoutMs: 5000, allowedPatterns: ALLOWED, ...overrides };
}

function redirectTo(location: string): Route {
  return (_request, response) => {
    response.writeHead(302, { location }).end();
  };
}

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  requests = [];
  routes = {
    '/iris.sluice': (_request, response) => {
      response.writeHead(200, { 'content-length': BODY.length }).end(BODY);
    },
    '/chunked.sluice': (_request, response) => {
      response.writeHead(200);
      response.write(Buffer.alloc(800, 1));
      response.end(Buffer.alloc(800, 2));
    },
    '/hang.sluice': () => undefined,
  };
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const route = routes[request.url ?? ''];
    if (route) route(request, response);
    else response.writeHead(404, 'Not Found').end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  await cleanup();
});

describe('downloadArchive', () => {
  it('saves the body to the destination file', async () => {
    const dest = join(dir, 'iris.sluice');
    const result = await downloadArchive(`${base}/iris.sluice`, dest, options());
    expect([result, await readFile(dest)]).toEqual([{ url: `${base}/iris.sluice`, bytes: BODY.length }, BODY]);
  });

  it('follows redirects that stay allowed', async () => {
    routes['/a'] = redirectTo('/b');
    routes['/b'] = redirectTo(`${base}/iris.sluice`);
    const result = await downloadArchive(`${base}/a`, join(dir, 'out.sluice'), options());
    expect([result.url, requests]).toEqual([`${base}/iris.sluice`, ['/a', '/b', '/iris.sluice']]);
  });

  it('refuses a redirect to a metadata address without following it', async () => {
    routes['/a'] = redirectTo('http://169.254.169.254/latest/meta-data/');
    await expect(downloadArchive(`${base}/a`, join(dir, 'out.sluice'), options())).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
      message:
        'url "http://169.254.169.254/latest/meta-data/" points at 169.254.169.254, a link-local or cloud metadata address; only http(s) URLs that match the allowed URL patterns and do not point at link-local or cloud metadata addresses are accepted',
    });
  });

  it('refuses a redirect to a URL outside the allowed patterns', async () => {
    routes['/a'] = redirectTo('http://localhost:1/iris.sluice');
    await expect(downloadArchive(`${base}/a`, join(dir, 'out.sluice'), options())).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
    });
  });

  it('gives up after three redirects', async () => {
    for (const [from, to] of [['/r1', '/r2'], ['/r2', '/r3'], ['/r3', '/r4'], ['/r4', '/iris.sluice']] as const) routes[from] = redirectTo(to);
    await expect(downloadArchive(`${base}/r1`, join(dir, 'out.sluice'), options())).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED',
      message: `downloading ${base}/r1 failed: more than 3 redirects; check the URL and that the server can reach it, then try again`,
    });
  });

  it('reports an error status', async () => {
    await expect(downloadArchive(`${base}/missing.sluice`, join(dir, 'out.sluice'), options())).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED',
      message: `downloading ${base}/missing.sluice failed: the server answered 404 Not Found; check the URL and that the server can reach it, then try again`,
    });
  });

  it('refuses a body whose announced length is over the limit', async () => {
    await expect(downloadArchive(`${base}/iris.sluice`, join(dir, 'out.sluice'), options({ maxBytes: 10 }))).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED',
      message: `downloading ${base}/iris.sluice failed: the server announces ${BODY.length} bytes, more than the limit of 10 bytes; check the URL and that the server can reach it, then try again`,
    });
  });

  it('stops a body without a length at the limit and leaves no file behind', async () => {
    await expect(downloadArchive(`${base}/chunked.sluice`, join(dir, 'out.sluice'), options())).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED',
      message: `downloading ${base}/chunked.sluice failed: the body is larger than the limit of 1024 bytes; check the URL and that the server can reach it, then try again`,
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('gives up at the deadline', async () => {
    await expect(downloadArchive(`${base}/hang.sluice`, join(dir, 'out.sluice'), options({ timeoutMs: 100 }))).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED',
      message: `downloading ${base}/hang.sluice failed: no complete answer within 100 ms; check the URL and that the server can reach it, then try again`,
    });
  });

  it('refuses a host name that resolves to a metadata address before connecting', async () => {
    const port = (server.address() as AddressInfo).port;
    const lookup = (): Promise<{ address: string; family: number }[]> => Promise.resolve([{ address: '169.254.169.254', family: 4 }]);
    await expect(
      downloadArchive(`http://models.test:${port}/iris.sluice`, join(dir, 'out.sluice'), options({ allowedPatterns: ['http://models\\.test:\\d+/.*'], lookup })),
    ).rejects.toMatchObject({ code: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED' });
    expect(requests).toEqual([]);
  });

  it('refuses a host name when any of its addresses is forbidden', async () => {
    const port = (server.address() as AddressInfo).port;
    const lookup = (): Promise<{ address: string; family: number }[]> =>
      Promise.resolve([
        { address: '127.0.0.1', family: 4 },
        { address: 'fe80::1', family: 6 },
      ]);
    await expect(
      downloadArchive(`http://models.test:${port}/iris.sluice`, join(dir, 'out.sluice'), options({ allowedPatterns: ['http://models\\.test:\\d+/.*'], lookup })),
    ).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
      message: `url "http://models.test:${port}/iris.sluice" resolves to fe80::1, a link-local or cloud metadata address, which is never downloaded from; only http(s) URLs that match the allowed URL patterns and do not point at link-local or cloud metadata addresses are accepted`,
    });
  });

  it('connects to the address the host name was checked at', async () => {
    const port = (server.address() as AddressInfo).port;
    const lookup = (): Promise<{ address: string; family: number }[]> => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const dest = join(dir, 'out.sluice');
    await downloadArchive(`http://models.test:${port}/iris.sluice`, dest, options({ allowedPatterns: ['http://models\\.test:\\d+/.*'], lookup }));
    expect(await readFile(dest)).toEqual(BODY);
  });

  it('refuses a URL outside the allowed patterns without any request', async () => {
    await expect(downloadArchive(`${base}/iris.sluice`, join(dir, 'out.sluice'), options({ allowedPatterns: [] }))).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
    });
    expect(requests).toEqual([]);
  });
});
