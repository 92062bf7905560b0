// No code generation in zod: the content security policy forbids eval, and zod's probe for it is
// reported as a violation on every page. zod keeps its configuration in this global (shared by
// every copy of zod), so setting it needs no zod here: pages that validate nothing never load zod
// (decision 038). Imported first by main.tsx; zod-config.test.ts checks that zod takes it.
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;

export {};
