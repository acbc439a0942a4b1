import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', '.angelia-test/**', 'node_modules/**', 'src/main/core/codex/generated/**', 'test-results/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        window: 'readonly',
        document: 'readonly',
        WebSocket: 'readonly',
        __dirname: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // The core under plain Node, and what the hosts compose (docs/architecture.md): it never reaches back
  // into the demo or a host. A relative import leaves src/main/core after as many `../` as the file is
  // deep (from core/<folder>/<file>.ts, `../api` is core/api and `../../api` is src/main/api).
  ...[0, 1, 2, 3].map((depth) => ({
    files: [`src/main/core/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The core runs under plain Node: no Electron imports below src/main/core.' },
            { name: 'react', message: 'The core never imports React.' },
          ],
          patterns: [
            {
              regex: `^((\\.\\./){${depth + 1}}|(.*/)?main/)(demo|host|api|electron|cli)(/|$)`,
              message: 'The core imports nothing from src/main/{demo,host,api,electron,cli}: move what it needs into the core.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/main/**', 'node:*'], message: 'The renderer never imports the core or Node.' }] }],
    },
  },
);
