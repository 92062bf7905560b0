import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { routeModules } from '../../build/route-preloads.ts';

it("the build's route-preloads finds every page of the route table", () => {
  const source = fs.readFileSync(path.join(import.meta.dirname, 'routes.tsx'), 'utf8');
  const pages = routeModules(source);
  expect(pages).toHaveLength(source.match(/import\(/g)?.length ?? 0);
  expect(pages).toContainEqual(['/', '../features/home/HomePage.tsx']);
  expect(pages).toContainEqual(['/file/:uuid', '../features/files/FilePage.tsx']);
});
