// Lint rules the team keeps: ESLint's and typescript-eslint's recommended sets (with types),
// React's hooks rules, the layers (shared/ imports neither side, client/ never the server, the server
// the app only through its SSR entry, and the server's floors run one way: layers.js), and no server module over 300 lines.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layerRules, serverReadsTheApp } from './layers.js';

const layer = (message, group) => ({
  'no-restricted-imports': ['error', { patterns: [{ group, message }] }],
});

export default defineConfig([
  { ignores: ['dist/', 'test-results/', 'bench/.build/', '.lighthouse/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // React Router answers with a status by throwing what `data()` returns.
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: 'react-router', name: 'DataWithResponseInit' }] },
      ],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  { files: ['client/**/*.{ts,tsx}'], extends: [reactHooks.configs.flat.recommended], languageOptions: { globals: globals.browser } },
  {
    // Tests read JSON bodies and spy on methods: the `any` of a parsed body is theirs to check.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  // Small server modules: one concern each, read whole (the embedded API's demo content is data).
  { files: ['server/**/*.ts'], ignores: ['server/embedded-api/demo-content/**'], rules: { 'max-lines': ['error', 300] } },
  { files: ['shared/**'], rules: layer('shared/ is used by both sides and imports neither', ['**/client/**', '**/server/**']) },
  { files: ['client/**'], rules: layer('the app never imports the server', ['**/server/**']) },
  serverReadsTheApp,
  layerRules,
  prettier,
]);
