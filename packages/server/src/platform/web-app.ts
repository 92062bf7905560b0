import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { pageFirstRequests } from '@mesmer/shared/api/page-first-requests';
import { usersApi } from '@mesmer/shared/api/users';
import { ageGateMarkup, SERVED_AGE_GATE_ID } from '@mesmer/shared/domain/age-gate';
import {
  PAGE_PRELOADS_FILE,
  type PagePreload,
  type PagePreloads,
  pageAt,
} from '@mesmer/shared/domain/page-preloads';
import { AGE_CONFIRMED_COOKIE, SITE_SETTINGS_META, type SiteSettings } from '@mesmer/shared/domain/site';
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
    ...(config.lovense && { lovensePairing: true }),
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

const EMPTY_ROOT = '<div id="root"></div>';

/** The build's list of each page's files (web/build/page-preloads.ts), or none for a build without it. */
function readPagePreloads(webDist: string): PagePreloads {
  const file = path.join(webDist, PAGE_PRELOADS_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as PagePreloads) : {};
}

/** `html` naming the page's scripts and styles, which then load with the app's instead of after them. */
function withPagePreload(html: string, page: PagePreload): string {
  const links = [
    ...page.styles.map((href) => `<link rel="stylesheet" crossorigin href="${escapeAttribute(href)}">`),
    ...page.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(href)}">`),
  ];
  return html.replace('</head>', `${links.join('')}</head>`);
}

/**
 * Serves the built web app: hashed assets with long caching, and index.html (with the site
 * settings in a meta tag) for every other GET (and HEAD) outside /api and /media, where the app's router
 * takes over (unknown paths go to /404). A first visit's index.html carries the 18+ gate, painted before
 * the scripts run. Also the /discord/install redirect.
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

  // Past the gate, every page starts by asking who is signed in: the request starts with the HTML's.
  const fetchPreload = (apiPath: string) =>
    `<link rel="preload" as="fetch" crossorigin href="/api${escapeAttribute(apiPath)}">`;
  const libraryHtml = indexHtml?.replace('</head>', `${fetchPreload(usersApi.get.path)}</head>`);

  // A visitor who confirmed their age gets the page's files named with the app's, and the page's first
  // call started with them. The HTML of a page without a first call is made once.
  const pagePreloads = config.webDist ? readPagePreloads(config.webDist) : {};
  const pageHtml = new Map<PagePreload, string>();
  const confirmedHtml = (pathname: string) => {
    const at = pageAt(pagePreloads, pathname);
    if (!libraryHtml || !at) return libraryHtml;
    let html = pageHtml.get(at.page);
    if (html === undefined) {
      html = withPagePreload(libraryHtml, at.page);
      pageHtml.set(at.page, html);
    }
    const firstRequest = pageFirstRequests[at.pattern];
    return firstRequest ? html.replace('</head>', `${fetchPreload(firstRequest(at.params))}</head>`) : html;
  };

  // A visitor who has not confirmed their age yet sees the 18+ gate at first paint.
  const firstVisitIndexHtml = indexHtml?.replace(
    EMPTY_ROOT,
    `${EMPTY_ROOT}<div id="${SERVED_AGE_GATE_ID}">${ageGateMarkup()}</div>`,
  );

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
    const html =
      req.cookies[AGE_CONFIRMED_COOKIE] === 'true'
        ? confirmedHtml(req.url.split('?')[0])
        : firstVisitIndexHtml;
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('Vary', 'Cookie')
      .send(html);
  });
}
