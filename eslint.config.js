import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'node_modules/**', '**/node_modules/**', '.device/**', 'bin/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Only src/telemetry/ builds providers and exporters; everything else uses @opentelemetry/api.
    files: ['src/**/*.ts', 'plugins/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['src/telemetry/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@opentelemetry/sdk-*', '@opentelemetry/exporter-*', '@opentelemetry/resources'], message: 'Only src/telemetry/ may import the OpenTelemetry SDK; use @opentelemetry/api or src/telemetry/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Plain JavaScript run by Node (the plugin starter): the Node globals it uses.
    files: ['examples/**/*.js'],
    languageOptions: {
      globals: { console: 'readonly', URL: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', AbortController: 'readonly' },
    },
  },
  {
    // Built-in plugins build only against the SDK, like third-party ones.
    files: ['plugins/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!sdk/)',
              message: 'Built-in plugins import only the SDK (src/sdk/index.js), as third-party plugins do.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
