import { createRequire } from 'node:module';

/**
 * Loads a CommonJS package the first time a setting asks for it (Redis, S3, SMTP), where the caller cannot
 * wait for `import()`: the embedded default then does not keep code it never runs in memory (decision 027).
 */
export const loadOnDemand = createRequire(import.meta.url);
