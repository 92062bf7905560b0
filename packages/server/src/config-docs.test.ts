import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, SETTING_NAMES } from './config.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** Every `NAME` in the first column of the README's configuration table. */
function readmeSettings(): string[] {
  const section = read('README.md').split('## Configuration')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
}

function envExampleSettings(): string[] {
  return [...read('.env.example').matchAll(/^([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]);
}

/** The server's own code, without tests and without config.ts itself. */
function serverSources(dir = import.meta.dirname): string {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return serverSources(file);
      const isSource = entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts');
      return isSource && file !== path.join(import.meta.dirname, 'config.ts')
        ? fs.readFileSync(file, 'utf8')
        : '';
    })
    .join('\n');
}

describe('settings that work', () => {
  it('config.ts turns every setting it validates into config', () => {
    const configSource = read('packages/server/src/config.ts');
    expect(SETTING_NAMES.filter((name) => !configSource.includes(`e.${name}`))).toEqual([]);
  });

  it('the server uses every config field', () => {
    const sources = serverSources();
    const fields = Object.keys(loadConfig({}));
    expect(fields.filter((field) => !new RegExp(`\\.${field}\\b`).test(sources))).toEqual([]);
  });
});

describe('documented settings', () => {
  it('the README table lists exactly the settings config.ts reads', () => {
    expect(readmeSettings().sort()).toEqual([...SETTING_NAMES].sort());
  });

  it('.env.example names only settings config.ts reads', () => {
    expect(envExampleSettings().filter((name) => !SETTING_NAMES.includes(name))).toEqual([]);
  });
});
