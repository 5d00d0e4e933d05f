// Lint rules of the house, run by `npm run lint` inside `npm test`. Function length is checked by
// test/house/function-length.test.ts (first line to last, every kind of function).
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '**/*.generated.ts', 'test/.tmp/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      eqeqeq: ['error', 'always'],
      // A closure may read a variable that is assigned once, after the closure is made.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // TypeScript checks names; the core rule does not know Node's and the DOM's globals.
      'no-undef': 'off',
    },
  },
  {
    // Tests read JSON answers of unknown shape; the engine itself has no `any`.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
