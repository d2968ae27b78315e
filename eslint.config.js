// Type-aware lint over src, test, bench and the web pages (web/src, with web/tsconfig.json);
// generated parsers and build output are ignored.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', '.tmp/**', 'node_modules/**', 'data/**', '**/*.cjs', 'eslint.config.js'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  // Sizes (STYLE.md): a file says one thing in at most 300 lines, a function in at most 80.
  {
    files: ['src/**/*.ts', 'web/src/**/*.{ts,tsx}', 'bench/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 80, IIFEs: true }],
    },
  },
  // Plain scripts (web/build.mjs) are in no TypeScript project.
  { files: ['**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Response bodies are JSON of the API's own shapes: tests read them as `any` and assert them.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
