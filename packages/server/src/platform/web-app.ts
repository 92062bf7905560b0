import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { SITE_SETTINGS_META, type SiteSettings } from '@mesmer/shared/domain/site';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** Settings the web app reads at run time (not build time), so one build serves any deployment. */
function siteSettings(config: Config): SiteSettings {
  return {
    siteName: config.siteName,
    wikiUrl: config.wikiUrl,
    contactEmail: config.contactEmail,
    ...(config.ads && { ads: { ...config.ads, adFreeTierIds: config.adFreeTierIds } }),
    ...(config.analytics && { analytics: config.analytics }),
    ...(config.patreon && { patreonLinking: true }),
  };
}

/** The origins of the configured ad and analytics scripts: the only other sites the page may reach. */
export function thirdPartyOrigins(config: Pick<Config, 'ads' | 'analytics'>): string[] {
  const urls = [config.ads?.scriptUrl, config.analytics?.scriptUrl].filter((u) => u !== undefined);
  return [...new Set(urls.map((u) => new URL(u).origin))];
}

function escapeAttribute(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

/**
 * Serves the built web app: hashed assets with long caching, and index.html (with the site
 * settings in a meta tag) for every other GET (and HEAD) outside /api and /media, where the app's router
 * takes over (unknown paths go to /404). Also the /discord/install redirect.
 */
export async function registerWebApp(app: FastifyInstance, config: Config) {
  app.get('/discord/install', (_req, reply) => reply.redirect(config.discordInstallUrl));

  const indexFile = config.webDist && path.join(config.webDist, 'index.html');
  const indexHtml =
    indexFile && fs.existsSync(indexFile)
      ? fs
          .readFileSync(indexFile, 'utf8')
          .replace(
            '</head>',
            `<meta name="${SITE_SETTINGS_META}" content="${escapeAttribute(JSON.stringify(siteSettings(config)))}" /></head>`,
          )
      : null;

  if (indexHtml && config.webDist) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (web/build/precompress.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const isAppPath =
      !req.url.startsWith('/api/') &&
      !req.url.startsWith('/media/') &&
      (req.method === 'GET' || req.method === 'HEAD');
    if (!indexHtml || !isAppPath) return reply.code(404).send({ error: 'Not found.' });
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(indexHtml);
  });
}
