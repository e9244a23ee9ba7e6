import { describe, expect, it } from '@jest/globals';
import { checkRemoteUrl, checkResolvedAddress } from '../../../../src/model-store/index.js';

const ADVICE = 'only http(s) URLs that match the allowed URL patterns and do not point at link-local or cloud metadata addresses are accepted';
const PATTERNS = ['https://models\\.example\\.com/.*', 'http://[^/]+/models/.*'];

describe('checkRemoteUrl', () => {
  it('allows a URL matching a pattern and returns it parsed', () => {
    expect(checkRemoteUrl('https://models.example.com/iris.sluice', PATTERNS).href).toBe('https://models.example.com/iris.sluice');
  });

  it('matches patterns against the whole URL, not a part of it', () => {
    expect(() => checkRemoteUrl('https://evil.test/?https://models.example.com/iris.sluice', ['https://models\\.example\\.com/.*'])).toThrow(
      `url "https://evil.test/?https://models.example.com/iris.sluice" matches none of the allowed URL patterns; ${ADVICE}`,
    );
  });

  it('accepts RegExp patterns too', () => {
    expect(checkRemoteUrl('https://models.example.com/a.sluice', [/https:\/\/models\.example\.com\/.*/]).hostname).toBe('models.example.com');
  });

  const refused: ReadonlyArray<readonly [string, string]> = [
    ['not a url', 'is not a valid URL'],
    ['file:///etc/passwd', 'uses the scheme file: instead of http: or https:'],
    ['ftp://models.example.com/iris.sluice', 'uses the scheme ftp: instead of http: or https:'],
    ['https://user:secret@models.example.com/iris.sluice', 'carries credentials; credentials in URLs are never accepted'],
    ['https://user@models.example.com/iris.sluice', 'carries credentials; credentials in URLs are never accepted'],
    ['https://models.example.com/a/../b.sluice', "contains a '..' path segment"],
    ['https://models.example.com/a/%2e%2e/b.sluice', "contains a '..' path segment"],
    ['https://models.example.com/a/%2E./b.sluice', "contains a '..' path segment"],
    ['https://models.example.com/a/%252e%252e/b.sluice', "contains a '..' path segment"],
    ['https://models.example.com/a/..%2fb.sluice', "contains a '..' path segment"],
    ['https://models.example.com\\@evil.test/x', 'contains a backslash, a space or a control character'],
    ['https://models.example.com/a\tb', 'contains a backslash, a space or a control character'],
    ['http://169.254.169.254/models/latest', 'points at 169.254.169.254, a link-local or cloud metadata address'],
    ['http://169.254.10.1/models/x', 'points at 169.254.10.1, a link-local or cloud metadata address'],
    ['http://0xa9.0xfe.0xa9.0xfe/models/x', 'points at 169.254.169.254, a link-local or cloud metadata address'],
    ['http://2852039166/models/x', 'points at 169.254.169.254, a link-local or cloud metadata address'],
    ['http://[fe80::1]/models/x', 'points at [fe80::1], a link-local or cloud metadata address'],
    ['http://[fd00:ec2::254]/models/x', 'points at [fd00:ec2::254], a link-local or cloud metadata address'],
    ['http://[::ffff:169.254.169.254]/models/x', 'points at [::ffff:a9fe:a9fe], a link-local or cloud metadata address'],
    ['http://metadata.google.internal/models/x', 'names the cloud metadata host metadata.google.internal'],
    ['http://METADATA./models/x', 'names the cloud metadata host metadata'],
    ['http://metadata/models/x', 'names the cloud metadata host metadata'],
    ['https://elsewhere.example.com/iris.sluice', 'matches none of the allowed URL patterns'],
  ];

  it.each(refused)('refuses %s', (url, reason) => {
    expect(() => checkRemoteUrl(url, PATTERNS)).toThrow(`url ${JSON.stringify(url)} ${reason}; ${ADVICE}`);
  });

  it('refuses every URL when no pattern is configured', () => {
    expect(() => checkRemoteUrl('https://models.example.com/iris.sluice', [])).toThrow(
      `url "https://models.example.com/iris.sluice" cannot be used because no URL patterns are allowed (allowedUrls is empty); ${ADVICE}`,
    );
  });

  it('refuses with the management URL code', () => {
    expect(() => checkRemoteUrl('file:///etc/passwd', PATTERNS)).toThrow(expect.objectContaining({ code: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED' }));
  });
});

describe('checkResolvedAddress', () => {
  it.each(['127.0.0.1', '10.0.0.1', '93.184.216.34', '::1', '2001:db8::1', 'fec0::1'])('allows %s', (ip) => {
    expect(() => { checkResolvedAddress(ip); }).not.toThrow();
  });

  it.each(['169.254.169.254', '169.254.0.1', 'fe80::1', 'febf:ffff::1', 'fd00:ec2::254', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '100.100.100.200'])(
    'refuses %s',
    (ip) => {
      expect(() => { checkResolvedAddress(ip); }).toThrow(
        `url ${JSON.stringify(ip)} resolves to ${ip}, a link-local or cloud metadata address, which is never downloaded from; ${ADVICE}`,
      );
    },
  );

  it('names the URL it was resolving when given', () => {
    expect(() => { checkResolvedAddress('169.254.169.254', 'http://models.test/a.sluice'); }).toThrow(
      `url "http://models.test/a.sluice" resolves to 169.254.169.254, a link-local or cloud metadata address, which is never downloaded from; ${ADVICE}`,
    );
  });

  it('refuses something that is not an IP address', () => {
    expect(() => { checkResolvedAddress('models.test'); }).toThrow(`url "models.test" resolved to "models.test", which is not an IP address; ${ADVICE}`);
  });
});
