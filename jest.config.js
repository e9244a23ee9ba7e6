import process from 'node:process';

// Sluice turns ONNX Runtime's usage telemetry off when it makes its runtime (see docs/configuration.md),
// but ONNX Runtime reads the variable natively, and a test file's process.env is a copy it never sees:
// the workers inherit it from here instead.
process.env.ORT_DISABLE_TELEMETRY ??= '1';

/** Jest runs TypeScript as native ES modules (Nest 12 ships ESM only). */
const tsJest = [
  'ts-jest',
  { useESM: true, tsconfig: 'tsconfig.json', diagnostics: false },
];
const shared = {
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': tsJest },
  testEnvironment: '<rootDir>/test/support/onnx-test-environment.ts',
  // .scratch/ holds what the deployment checks build, the container images' files among them.
  modulePathIgnorePatterns: ['<rootDir>/.scratch/'],
};
export default {
  // Each test file loads the server's modules afresh; run in one process, they pile up (gigabytes over the
  // e2e suite, with the slowdown of a heap near its limit). A worker that holds more than this after a file
  // is replaced before the next one, and setting it makes jest run files in a worker even with one core.
  workerIdleMemoryLimit: '1GB',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-test-timeout.ts'],
    },
  ],
};
