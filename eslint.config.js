import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', '.angelia-test/**', 'node_modules/**', 'src/main/core/codex/generated/**', 'test-results/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', window: 'readonly', document: 'readonly', WebSocket: 'readonly', __dirname: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/main/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [
        { name: 'electron', message: 'The core runs under plain Node: no Electron imports below src/main/core.' },
        { name: 'react', message: 'The core never imports React.' },
      ] }],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/main/**', 'node:*'], message: 'The renderer never imports the core or Node.' }] }],
    },
  },
);
