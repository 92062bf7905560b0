// The hardening headers on every kind of answer: a content security policy that allows no
// inline or evaluated script and no other site, and the rest of the usual set.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness.ts';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'mesmer-headers-'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<html><head></head><body></body></html>');
const { app } = await createTestApp({ webDist });

/** The CSP as directive → sources. */
function policy(header: string | string[] | number | undefined): Record<string, string[]> {
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('hardening headers', () => {
  const answers = {
    'an API answer': () => app.inject({ method: 'GET', url: '/api/health' }),
    'an API error': () => app.inject({ method: 'GET', url: '/api/nope' }),
    'the web app': () => app.inject({ method: 'GET', url: '/playlists' }),
    'a media refusal': () => app.inject({ method: 'GET', url: '/media/audio/x.mp3' }),
  };

  for (const [what, request] of Object.entries(answers)) {
    it(`are on ${what}`, async () => {
      const res = await request();
      const csp = policy(res.headers['content-security-policy']);
      expect(csp['default-src']).toEqual(["'self'"]);
      expect(csp['script-src']).toEqual(["'self'"]);
      expect(csp['script-src-attr']).toEqual(["'none'"]);
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'self'"]);
      expect(csp['form-action']).toEqual(["'self'"]);
      expect(csp['frame-ancestors']).toEqual(["'self'"]);
      // This site, and Intiface Central on the listener's own machine (toys over Buttplug).
      expect(csp['connect-src']).toEqual(["'self'", 'ws://127.0.0.1:*', 'ws://localhost:*']);
      for (const sources of Object.values(csp)) {
        expect(sources).not.toContain("'unsafe-eval'");
        expect(sources.filter((s) => s.startsWith('http') || s === '*')).toEqual([]);
      }
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'x-permitted-cross-domain-policies': 'none',
      });
      expect(res.headers['x-powered-by']).toBeUndefined();
    });
  }

  it('keep inline script out of the page itself (the built index.html loads scripts by src only)', () => {
    const page = fs.readFileSync(path.resolve(import.meta.dirname, '../../../web/index.html'), 'utf8');
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body.trim()).toBe('');
    }
  });
});
