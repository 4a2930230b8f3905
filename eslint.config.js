// Lint rules the team keeps: ESLint's and typescript-eslint's recommended sets (with types),
// React's hooks rules, and the layers: shared/ imports neither side, client/ never the server.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    },
  },
  { files: ['**/*.js', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
  { files: ['client/**/*.{ts,tsx}'], extends: [reactHooks.configs.flat.recommended], languageOptions: { globals: globals.browser } },
  { files: ['shared/**'], rules: layer('shared/ is used by both sides and imports neither', ['**/client/**', '**/server/**']) },
  { files: ['client/**'], rules: layer('the app never imports the server', ['**/server/**']) },
  prettier,
]);
