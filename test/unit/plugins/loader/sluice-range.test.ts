import { describe, expect, it } from '@jest/globals';
import { checkSluiceRange } from '../../../../src/plugins/loader/sluice-range.js';
import type { PluginManifest } from '../../../../src/plugins/loader/plugin-manifest.js';

const manifest = (sluice: string): PluginManifest => ({ name: 'p', version: '1.2.3', sluice, provides: [] });

describe('checkSluiceRange', () => {
  it('accepts a version inside the range', () => {
    expect(() => {
      checkSluiceRange(manifest('>=0.1.0 <0.2.0'), '0.1.0');
    }).not.toThrow();
    expect(() => {
      checkSluiceRange(manifest('^0.1.0'), '0.1.7');
    }).not.toThrow();
  });

  it('refuses a version outside the range, naming the plugin, its version and the field', () => {
    expect(() => {
      checkSluiceRange(manifest('^1.0.0'), '0.1.0');
    }).toThrow("plugin p@1.2.3 supports Sluice ^1.0.0 (field `sluice`), not this server's 0.1.0; use a version of the plugin built for 0.1.0");
  });

  it('refuses a range that is not semver', () => {
    expect(() => {
      checkSluiceRange(manifest('the latest'), '0.1.0');
    }).toThrow('plugin p: `sluice` is not a semver range (got "the latest"); write one such as ">=0.1.0 <0.2.0"');
  });

  it('refuses a blank range rather than reading it as any version', () => {
    expect(() => {
      checkSluiceRange(manifest('   '), '0.1.0');
    }).toThrow('plugin p: `sluice` is not a semver range (got "   "); write one such as ">=0.1.0 <0.2.0"');
  });
});
