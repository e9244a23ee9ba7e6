import { describe, expect, it } from '@jest/globals';
import { ModelRegistry } from '../../../src/serving/model-registry.js';
import type { ModelVersion } from '../../../src/serving/model-version.js';

/** The registry only reads `name` and `version`. */
function version(name: string, v: string): ModelVersion {
  return { name, version: v } as unknown as ModelVersion;
}

function registryWith(...versions: [string, string][]): ModelRegistry {
  const registry = new ModelRegistry();
  for (const [name, v] of versions) registry.add(version(name, v));
  return registry;
}

const versionsOf = (registry: ModelRegistry, name: string): string[] => registry.versionsOf(name).map((v) => v.version);

describe('ModelRegistry: adding', () => {
  it('makes the first version of a model its default', () => {
    const registry = registryWith(['iris', '2'], ['iris', '10']);
    expect(registry.defaultVersionOf('iris')).toBe('2');
  });

  it('makes a version added with makeDefault the default', () => {
    const registry = registryWith(['iris', '1']);
    registry.add(version('iris', '2'), true);
    expect(registry.defaultVersionOf('iris')).toBe('2');
  });

  it('refuses a version that is already registered', () => {
    const registry = registryWith(['iris', '1']);
    expect(() => {
      registry.add(version('iris', '1'));
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MODEL_ALREADY_REGISTERED',
        message: 'model `iris` version `1` is already registered; unregister it first or register another version',
      }),
    );
  });

  it('knows what is registered', () => {
    const registry = registryWith(['iris', '1']);
    expect([registry.has('iris'), registry.has('iris', '1'), registry.has('iris', '2'), registry.has('mnist')]).toEqual([true, true, false, false]);
  });
});

describe('ModelRegistry: resolving', () => {
  it('resolves the default version when none is asked for', () => {
    const registry = registryWith(['iris', '1'], ['iris', '2']);
    expect(registry.resolve('iris').version).toBe('1');
  });

  it('resolves the version asked for', () => {
    const v2 = version('iris', '2');
    const registry = registryWith(['iris', '1']);
    registry.add(v2);
    expect(registry.resolve('iris', '2')).toBe(v2);
  });

  it('refuses an unknown model, listing the registered ones', () => {
    const registry = registryWith(['mnist', '1'], ['iris', '1']);
    expect(() => registry.resolve('resnet')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MODEL_NOT_FOUND',
        message: 'model `resnet` is not registered; registered models: iris, mnist',
        details: { model: 'resnet' },
      }),
    );
  });

  it('says "none" when no model is registered', () => {
    expect(() => new ModelRegistry().resolve('iris')).toThrow('model `iris` is not registered; registered models: none');
  });

  it('refuses an unknown version, listing the registered ones in order', () => {
    const registry = registryWith(['iris', '10'], ['iris', '9']);
    expect(() => registry.resolve('iris', '3')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MODEL_VERSION_NOT_FOUND',
        message: 'model `iris` has no version `3`; registered versions: 9, 10',
        details: { model: 'iris', version: '3' },
      }),
    );
  });
});

describe('ModelRegistry: default version', () => {
  it('sets another registered version as the default', () => {
    const registry = registryWith(['iris', '1'], ['iris', '2']);
    registry.setDefault('iris', '2');
    expect(registry.resolve('iris').version).toBe('2');
  });

  it('refuses to make an unknown version the default', () => {
    const registry = registryWith(['iris', '1']);
    expect(() => {
      registry.setDefault('iris', '2');
    }).toThrow(expect.objectContaining({ code: 'SLUICE_MODEL_VERSION_NOT_FOUND' }));
    expect(registry.defaultVersionOf('iris')).toBe('1');
  });

  it('refuses the default of an unknown model', () => {
    expect(() => new ModelRegistry().defaultVersionOf('iris')).toThrow(expect.objectContaining({ code: 'SLUICE_MODEL_NOT_FOUND' }));
  });
});

describe('ModelRegistry: removing', () => {
  it('removes a version that is not the default and returns it', () => {
    const v2 = version('iris', '2');
    const registry = registryWith(['iris', '1']);
    registry.add(v2);
    expect(registry.remove('iris', '2')).toBe(v2);
    expect(versionsOf(registry, 'iris')).toEqual(['1']);
  });

  it('refuses to remove the default version while others exist', () => {
    const registry = registryWith(['iris', '1'], ['iris', '2']);
    expect(() => registry.remove('iris', '1')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MODEL_DEFAULT_VERSION_IN_USE',
        message:
          'version `1` is the default of model `iris`; set another default first (PUT /models/iris/<version>/set-default) or unregister the whole model',
      }),
    );
    expect(versionsOf(registry, 'iris')).toEqual(['1', '2']);
  });

  it('removes the last version and with it the model', () => {
    const registry = registryWith(['iris', '1']);
    registry.remove('iris', '1');
    expect(registry.has('iris')).toBe(false);
    expect(registry.names()).toEqual([]);
  });

  it('lets a model be registered afresh after its last version went, with a new default', () => {
    const registry = registryWith(['iris', '1']);
    registry.remove('iris', '1');
    registry.add(version('iris', '5'));
    expect(registry.defaultVersionOf('iris')).toBe('5');
  });

  it('refuses to remove an unknown version', () => {
    const registry = registryWith(['iris', '1']);
    expect(() => registry.remove('iris', '2')).toThrow(expect.objectContaining({ code: 'SLUICE_MODEL_VERSION_NOT_FOUND' }));
  });
});

describe('ModelRegistry: listing', () => {
  it('lists model names sorted', () => {
    expect(registryWith(['mnist', '1'], ['iris', '1']).names()).toEqual(['iris', 'mnist']);
  });

  it('lists a model’s versions lowest first', () => {
    expect(versionsOf(registryWith(['iris', '10'], ['iris', '2'], ['iris', '9']), 'iris')).toEqual(['2', '9', '10']);
  });

  it('lists every version of every model', () => {
    const all = registryWith(['mnist', '1'], ['iris', '2'], ['iris', '1']).all();
    expect(all.map((v) => `${v.name}:${v.version}`)).toEqual(['iris:1', 'iris:2', 'mnist:1']);
  });
});
