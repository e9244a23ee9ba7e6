import { describe, expect, it } from '@jest/globals';
import { checkObjectStoreUrl, isObjectStoreUrl, parseObjectStoreUrl } from '../../../../src/model-store/index.js';

const ADVICE =
  'object-store URLs are written s3://bucket/prefix or azure://account/container/prefix, without credentials, query or fragment, and must match the allowed URL patterns';

describe('parseObjectStoreUrl', () => {
  it('reads the bucket and prefix of an s3 URL', () => {
    expect(parseObjectStoreUrl('s3://models/team/iris/')).toEqual({ scheme: 's3', bucket: 'models', prefix: 'team/iris/', url: 's3://models/team/iris/' });
  });

  it('reads a whole bucket as the empty prefix', () => {
    expect(parseObjectStoreUrl('s3://models')).toMatchObject({ bucket: 'models', prefix: '' });
  });

  it('reads the account, container and prefix of an azure URL', () => {
    expect(parseObjectStoreUrl('azure://acct1/models/iris')).toEqual({ scheme: 'azure', account: 'acct1', bucket: 'models', prefix: 'iris', url: 'azure://acct1/models/iris' });
  });

  it('tells object-store URLs from others', () => {
    expect([isObjectStoreUrl('s3://a/b'), isObjectStoreUrl('AZURE://a/b/c'), isObjectStoreUrl('https://a/b'), isObjectStoreUrl('iris')]).toEqual([true, true, false, false]);
  });

  const refused: ReadonlyArray<readonly [string, string]> = [
    ['s3://AKIA:secret@models/iris', 'carries credentials or a port; credentials in URLs are never accepted'],
    ['s3://models:9000/iris', 'carries credentials or a port; credentials in URLs are never accepted'],
    ['s3://models/iris?X-Amz-Signature=abc', 'has a query or a fragment; signed URLs and other credentials in URLs are never accepted'],
    ['azure://acct1/models/iris?sig=abc', 'has a query or a fragment; signed URLs and other credentials in URLs are never accepted'],
    ['s3://models/a/../b', "contains a '.' or '..' path segment"],
    ['s3://models//b', 'contains an empty path segment'],
    ['s3://models/a\\b', 'contains a backslash or a control character'],
    ['s3://Models/a', 'names "Models", which is not a valid S3 bucket name'],
    ['s3://ab/a', 'names "ab", which is not a valid S3 bucket name'],
    ['azure://Acct/models/a', 'names "Acct", which is not a valid Azure storage account name'],
    ['azure://acct1', 'names the container "", which is not a valid Azure container name (azure://account/container/prefix)'],
  ];

  it.each(refused)('refuses %s', (url, reason) => {
    expect(() => parseObjectStoreUrl(url)).toThrow(`url ${JSON.stringify(url)} ${reason}; ${ADVICE}`);
  });
});

describe('checkObjectStoreUrl', () => {
  it('allows a URL that fully matches an allowed pattern', () => {
    expect(checkObjectStoreUrl('s3://models/team-a/iris/', ['s3://models/team-a/.*']).prefix).toBe('team-a/iris/');
  });

  it('refuses another prefix of an allowed bucket', () => {
    expect(() => checkObjectStoreUrl('s3://models/team-b/iris/', ['s3://models/team-a/.*'])).toThrow(
      `url "s3://models/team-b/iris/" matches none of the allowed URL patterns; ${ADVICE}`,
    );
  });

  it('does not let a pattern match part of the URL', () => {
    expect(() => checkObjectStoreUrl('s3://evil/models/x', ['models/.*'])).toThrow(expect.objectContaining({ code: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED' }));
  });

  it('refuses every URL when no pattern is configured', () => {
    expect(() => checkObjectStoreUrl('s3://models/iris', [])).toThrow(
      `url "s3://models/iris" cannot be used because no URL patterns are allowed (allowedUrls is empty); ${ADVICE}`,
    );
  });
});
