// ESLint (flat config): the recommended rules of ESLint and typescript-eslint over every
// TypeScript and JavaScript file of the repository. Formatting is Prettier's: `npm run lint`
// runs both, with zero warnings allowed.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const node = {
  process: 'readonly',
  console: 'readonly',
  require: 'readonly',
  module: 'writable',
  __dirname: 'readonly',
};

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'coverage/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_name` marks a value left out on purpose (a property dropped from a rest copy, an unused parameter)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // the CommonJS configuration files read by jest and dependency-cruiser
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
