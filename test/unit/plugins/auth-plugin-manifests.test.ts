import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { load as loadYaml } from 'js-yaml';
import { JWT_AUTH_DEFAULTS } from '../../../plugins/jwt-auth/index.js';
import { TOKEN_AUTH_DEFAULTS } from '../../../plugins/token-auth/index.js';
import { packageRoot } from '../../../src/package-files/package-root.js';

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly provides: readonly { point: string; name: string }[];
  readonly config: { properties: Record<string, { default?: unknown }> };
}

const root = packageRoot();
const strictAjv = (): Ajv => new Ajv({ allErrors: true, strict: true });
const manifestSchema = JSON.parse(readFileSync(join(root, 'schemas', 'plugin.schema.json'), 'utf8')) as object;
const manifest = (plugin: string): Manifest => loadYaml(readFileSync(join(root, 'plugins', plugin, 'sluice-plugin.yaml'), 'utf8')) as Manifest;
const packageJson = (plugin: string): { version: string } => JSON.parse(readFileSync(join(root, 'plugins', plugin, 'package.json'), 'utf8')) as { version: string };
const defaults = (plugin: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(manifest(plugin).config.properties).flatMap(([key, node]) => (node.default === undefined ? [] : [[key, node.default]])));

describe.each(['token-auth', 'jwt-auth'])('the %s manifest', (plugin) => {
  it('follows schemas/plugin.schema.json', () => {
    const validate = strictAjv().compile(manifestSchema);
    expect({ valid: validate(manifest(plugin)), errors: validate.errors ?? [] }).toEqual({ valid: true, errors: [] });
  });

  it('carries a config schema that compiles in strict mode', () => {
    expect(() => strictAjv().compile(manifest(plugin).config)).not.toThrow();
  });

  it('has the version of its package.json and provides its own auth', () => {
    expect(manifest(plugin).version).toBe(packageJson(plugin).version);
    expect(manifest(plugin).provides).toContainEqual({ point: 'auth', name: plugin });
  });
});

describe('auth plugin config defaults', () => {
  it('token-auth documents the defaults its code applies', () => {
    expect(defaults('token-auth')).toEqual(TOKEN_AUTH_DEFAULTS);
  });

  it('jwt-auth documents the defaults its code applies', () => {
    expect(defaults('jwt-auth')).toEqual(JWT_AUTH_DEFAULTS);
  });

  it('jwt-auth refuses `none` as an algorithm in its config schema', () => {
    const validate = strictAjv().compile(manifest('jwt-auth').config);
    expect(validate({ jwksFile: 'j.json', issuer: 'i', audience: 'a', algorithms: ['none'] })).toBe(false);
  });

  it('jwt-auth takes maxTokenLifetimeSeconds in its config schema, a whole number of seconds above 0', () => {
    const validate = strictAjv().compile(manifest('jwt-auth').config);
    const config = (maxTokenLifetimeSeconds: unknown): object => ({ jwksFile: 'j.json', issuer: 'i', audience: 'a', maxTokenLifetimeSeconds });
    expect([validate(config(3600)), validate(config(0)), validate(config(1.5))]).toEqual([true, false, false]);
  });

  it.each(['HS256', 'HS384', 'HS512'])('jwt-auth refuses the HMAC algorithm %s in its config schema', (algorithm) => {
    const validate = strictAjv().compile(manifest('jwt-auth').config);
    expect(validate({ jwksFile: 'j.json', issuer: 'i', audience: 'a', algorithms: ['ES256', algorithm] })).toBe(false);
  });
});
