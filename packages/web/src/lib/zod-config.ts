import { z } from 'zod';

// No code generation in zod: the content security policy forbids eval, and zod's probe for it is
// reported as a violation on every page. Imported first by main.tsx, before any schema is built.
z.config({ jitless: true });
