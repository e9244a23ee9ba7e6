import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * One management request as TorchServe's own regression collection sends it (model archives replaced by
 * store names of this test's server), with the status Sluice answers. Where Sluice answers otherwise
 * than TorchServe, `torchserve` holds TorchServe's status and `why` the reason: Sluice refuses malformed
 * values (TorchServe reads `batch_size=dd` as no value) and answers a clash 409 rather than 500.
 */
interface CorpusRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly status: number;
  readonly torchserve?: number;
  readonly why?: string;
}

const MALFORMED = 'a malformed value is refused, not read as absent';

const CORPUS: readonly CorpusRequest[] = [
  { method: 'POST', path: '/models?url=iris&model_name=squeezenet1_1', status: 200 },
  { method: 'POST', path: '/models?url=mlp&model_name=mnist', status: 200 },
  { method: 'POST', path: '/models?url=iris&model_name=densenet161', status: 200 },
  { method: 'POST', path: '/models?url=iris&model_name=densenet161', status: 409, torchserve: 500, why: 'registering a registered version again is a conflict' },
  { method: 'DELETE', path: '/models/densenet161', status: 200 },
  { method: 'POST', path: '/models', status: 400 },
  { method: 'DELETE', path: '/models/mnist', status: 200 },
  { method: 'POST', path: '/models?url=mlp&model_name=mnist&handler=invalidHandler', status: 400, torchserve: 200, why: 'a handler Sluice does not have is refused at once' },
  { method: 'GET', path: '/models/squeezenet1_1/all', status: 200 },
  { method: 'GET', path: '/models/squeezenet1_1/1.0', status: 200 },
  { method: 'GET', path: '/models/squeezenet1_1', status: 200 },
  { method: 'DELETE', path: '/models/squeezenet1_1', status: 200 },
  { method: 'POST', path: '/models?url=iris&model_name=squeezenet1_1&runtime=python4', status: 400 },
  { method: 'GET', path: '/models?limit=&next_page_token=', status: 200 },
  { method: 'POST', path: '/models?url=iris&model_name=squeezenet1_1', status: 200 },
  { method: 'PUT', path: '/models/squeezenet1_1?min_worker=1', status: 202 },
  { method: 'PUT', path: '/models/squeezenet1_1?min_worker=1&synchronous=true', status: 200 },
  { method: 'PUT', path: '/models/squeezenet1_1/1.0?min_worker=1&synchronous=true', status: 200 },
  { method: 'PUT', path: '/models/squeezenet1_1/0.0?min_worker=1&synchronous=true', status: 404 },
  { method: 'PUT', path: '/models/squeezenet1_1?min_worker=1&number_gpu=1', status: 202 },
  { method: 'PUT', path: '/models/squeezenet1_1/1.0/set-default', status: 200 },
  { method: 'PUT', path: '/models/squeezenet1_1/0.0/set-default', status: 404 },
  { method: 'PUT', path: '/models/squeezenet0_1/1.0/set-default', status: 404 },
  { method: 'DELETE', path: '/models/squeezenet1_1', status: 200 },
  { method: 'POST', path: '/models?url=iris&model_name=squeezenet1_1&handler=serve/ts/torch_handler/image_classifier.py:handle', status: 200 },
  { method: 'DELETE', path: '/models/squeezenet1_1', status: 200 },
  {
    method: 'POST',
    path: '/models?url=iris&model_name=squeezenet1_1&batch_size=3&initial_workers=3&startup_timeout=0',
    status: 400,
    torchserve: 500,
    why: 'a load time limit of 0 s is refused before loading',
  },
  { method: 'POST', path: '/models?url=iris&model_name=squeezenet1_1&startup_timeout=0', status: 400, torchserve: 200, why: 'a load time limit of 0 s is refused before loading' },
  { method: 'POST', path: '/models?url=iris&model_name=resnet152&batch_size=2', status: 200 },
  { method: 'DELETE', path: '/models/resnet152', status: 200 },
  { method: 'POST', path: '/models?url=iris&model_name=resnet152&batch_size=dd&initial_workers=1', status: 400, torchserve: 200, why: MALFORMED },
  { method: 'POST', path: '/models?url=iris&model_name=resnet152&batch_size=2&initial_workers=1&max_batch_delay=junk', status: 400, torchserve: 200, why: MALFORMED },
  { method: 'POST', path: '/models?url=iris&model_name=squeezenet1_1&initial_workers=-1', status: 400, torchserve: 200, why: MALFORMED },
  { method: 'POST', path: '/models?url=iris&model_name=resnet-18&synchronous=true', status: 200 },
  { method: 'DELETE', path: '/models/resnet-18', status: 200 },
  { method: 'POST', path: '/models?url=iris&model_name=resnet-18&synchronous=-1', status: 400, torchserve: 200, why: MALFORMED },
  { method: 'POST', path: '/models?url=iris&model_name=resnet-18&synchronous=false', status: 202, torchserve: 200, why: 'an asynchronous registration answers 202, as TorchServe documents it' },
  { method: 'GET', path: '/models?limit=1', status: 200 },
  { method: 'GET', path: '/models?limit=-1', status: 400, torchserve: 200, why: MALFORMED },
  { method: 'GET', path: '/models?limit=1&next_page_token=1', status: 200 },
  { method: 'GET', path: '/models?limit=1&next_page_token=-1', status: 400, torchserve: 200, why: MALFORMED },
  { method: 'PUT', path: '/models/resnet-18?number_gpu=10', status: 202 },
  { method: 'PUT', path: '/models/resnet-18?number_gpu=-1', status: 400, torchserve: 202, why: MALFORMED },
  { method: 'PUT', path: '/models/resnet-18?min_worker=1&max_worker=1&synchronous=true', status: 200 },
  { method: 'PUT', path: '/models/resnet-18?min_worker=1&max_worker=1&synchronous=false', status: 202 },
  { method: 'PUT', path: '/models/resnet-18?timeout=-1', status: 202 },
  { method: 'PUT', path: '/models/resnet-18?timeout=0', status: 202 },
  { method: 'POST', path: '/models?url=&model_name=resnet-18', status: 400, torchserve: 404, why: 'an empty url is a missing one' },
  {
    method: 'POST',
    path: '/models?url=https://torchserve.pytorch.org/mar_files/invalid-resnet-18.mar&model_name=invalid-resnet18',
    status: 403,
    torchserve: 400,
    why: 'a URL outside allowedUrls is refused before any download',
  },
  { method: 'GET', path: '/models/invalid_squeezenet1_1', status: 404 },
  { method: 'GET', path: '/models/squeezenet1_1/0.0', status: 404 },
  { method: 'GET', path: '/models?next_page_token=12', status: 200 },
  { method: 'PUT', path: '/models/resnet-18?min_worker=1&synchronous=Nan', status: 400, torchserve: 202, why: MALFORMED },
  { method: 'PUT', path: '/models/resnet-18?min_worker=nan&synchronous=nan', status: 400, torchserve: 202, why: MALFORMED },
  { method: 'PUT', path: '/models/resnet-18', status: 202 },
  { method: 'PUT', path: '/models/resnet181?min_worker=1', status: 404 },
  { method: 'PUT', path: '/models/resnet-18?min_worker=2&max_worker=1', status: 400 },
  { method: 'PUT', path: '/models/resnet-18?min_worker=1', status: 202 },
  { method: 'PUT', path: '/models/resnet-18?min_worker=0', status: 202 },
  { method: 'PUT', path: '/models/resnet-18?min_worker=-1', status: 400, torchserve: 500, why: MALFORMED },
  { method: 'PUT', path: '/models/resnet-18?max_worker=-1', status: 400 },
  { method: 'PUT', path: '/models/invalid_squeezenet1_1/1.0/set-default', status: 404 },
  { method: 'DELETE', path: '/models/resnet-18', status: 200 },
  { method: 'DELETE', path: '/models/squeezenet1_1/0.0', status: 404 },
  { method: 'POST', path: '/models?url=iris&model_name=squeezenet1_1', status: 200 },
  { method: 'DELETE', path: '/models/squeezenet1_1/?synchronous=true', status: 200 },
  { method: 'DELETE', path: '/models/squeezenet1_1/?synchronous=nan', status: 400, torchserve: 200, why: MALFORMED },
  { method: 'DELETE', path: '/models/squeezenet1_1/?timeout=true', status: 400, torchserve: 200, why: MALFORMED },
  { method: 'DELETE', path: '/models/squeezenet1_1/?timeout=true&synchronous=-1', status: 400, torchserve: 200, why: MALFORMED },
  { method: 'DELETE', path: '/models/invalid_squeezenet1_1', status: 404 },
];

describe('TorchServe management requests (its regression collection) against Sluice', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('answers every request of the collection with the status listed, in order', async () => {
    const answers: string[] = [];
    for (const request of CORPUS) {
      const { status, body } = await requestJson(`${t.management}${request.path}`, { method: request.method });
      answers.push(`${request.method} ${request.path} → ${status}`);
      // The asynchronous registration must have loaded before the requests that scale it.
      if (request.path.endsWith('resnet-18&synchronous=false')) {
        for (let i = 0; i < 200 && (await requestJson(`${t.management}/models/resnet-18`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 50));
      }
      if (status >= 400) expect(body).toMatchObject({ code: status, errorCode: expect.stringMatching(/^SLUICE_/) });
    }
    expect(answers).toEqual(CORPUS.map((r) => `${r.method} ${r.path} → ${r.status}`));
  });

  it('gives a reason wherever it answers otherwise than TorchServe', () => {
    expect(CORPUS.filter((r) => r.torchserve !== undefined && (r.why === undefined || r.torchserve === r.status))).toEqual([]);
  });
});
