// Types of eslint.config.mjs for the test that checks its layer rules (test/architecture).
import type { Linter } from 'eslint';

declare const config: Linter.Config[];
export default config;
