import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', '.bench/', 'fuzz-findings/', 'web/src/api/schema.d.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'no-console': 'off',
    },
  },
  // The web interface: hooks called unconditionally, effects with every dependency named.
  { files: ['web/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  // About what the React Compiler cannot memoise: the interface is not compiled by it.
  { files: ['web/**/*.{ts,tsx}'], rules: { 'react-hooks/incompatible-library': 'off' } },
);
