import { describe, expect, it } from 'vitest';
import { filesRoutes } from '../routes/files.ts';
import { filesApi } from './files.ts';
import { allRoutes, contract } from './routes.ts';

describe('the contract', () => {
  it("declares each call at the address its name gives, so the web's addresses find their schemas", () => {
    for (const [domain, calls] of Object.entries(contract)) {
      for (const [key, route] of Object.entries(calls)) expect(route.name).toBe(`${domain}.${key}`);
    }
    expect(filesApi.list).toMatchObject(filesRoutes.list);
  });

  it('names every call once', () => {
    const names = allRoutes.map((route) => route.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
