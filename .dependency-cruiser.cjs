// Layer rules (decision 017), run by `npm test` (scripts/test.mjs) through `npm run check:layers`.
const web = '^packages/web/src/';
const server = '^packages/server/src/';

// Server files outside repos and db/ that still import drizzle-orm. Each entry is a known exception:
// shrink this list, never grow it.
const queryBuilderAllowed = [
  // Recognises drizzle's query error to map constraint violations to AppErrors; builds no query.
  `${server}platform/errors\\.ts$`,
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'query-builder-only-in-repos',
      comment: 'SQL lives in *.repo.ts and db/; everything else asks a repo (tests may seed and inspect).',
      severity: 'error',
      from: {
        path: server,
        pathNot: [
          '\\.repo\\.ts$',
          `${server}db/`,
          `${server}test/`,
          '\\.test\\.ts$',
          '\\.test-data\\.ts$',
          ...queryBuilderAllowed,
        ],
      },
      to: { path: '(^|/)node_modules/drizzle-orm/' },
    },
    {
      name: 'server-db-knows-no-modules',
      comment:
        'db/ (schema, client, seeds, SQL helpers) is below the modules: what seeding needs of a module is passed in.',
      severity: 'error',
      from: { path: `${server}db/` },
      to: { path: `${server}modules/` },
    },
    {
      name: 'server-platform-knows-no-modules',
      comment:
        'platform/ is what every module stands on; the composition root (modules/index.ts) wires modules to it.',
      severity: 'error',
      from: { path: `${server}platform/` },
      to: { path: `${server}modules/` },
    },
    {
      name: 'module-imports-module-through-service-or-index',
      comment:
        "A module uses another only through that module's *.service.ts files (the services the composition " +
        'root hands it, and their types) or its index.ts (a declared public surface): never its repos, routes, ' +
        'presenters or helpers.',
      severity: 'error',
      // Tests may take another module's test data to seed with.
      from: { path: `${server}modules/([^/]+)/`, pathNot: ['\\.test\\.ts$'] },
      to: {
        path: `${server}modules/[^/]+/`,
        pathNot: [
          `${server}modules/$1/`,
          `${server}modules/[^/]+/[^/]+\\.service\\.ts$`,
          `${server}modules/[^/]+/index\\.ts$`,
        ],
      },
    },
    {
      name: 'repo-imports-no-other-module-repo',
      comment:
        "A module's repo holds its own SQL; SQL shared by several modules lives in db/ (row-count.ts, sql-helpers.ts).",
      severity: 'error',
      from: { path: `${server}modules/([^/]+)/[^/]+\\.repo\\.ts$` },
      to: { path: `${server}modules/[^/]+/[^/]+\\.repo\\.ts$`, pathNot: `${server}modules/$1/` },
    },
    {
      name: 'ui-and-lib-are-below-features',
      comment:
        'ui/ and lib/ are the base of the web app: they know no query (api/), feature, the player or library widgets.',
      severity: 'error',
      from: { path: `${web}(ui|lib)/` },
      to: { path: `${web}(api|features|player|library|app)/` },
    },
    {
      name: 'features-never-import-features',
      comment:
        'A feature imports only downward (api/, ui/, lib/, library/, player/), never another feature: ' +
        'what two features share moves down a level, or app/ composes them.',
      severity: 'error',
      from: { path: `${web}features/([^/]+)/` },
      to: { path: `${web}features/[^/]+/`, pathNot: `${web}features/$1/` },
    },
    {
      name: 'library-knows-no-feature',
      comment: 'Library widgets are shared by features, so they import none (app/ hands them feature parts).',
      severity: 'error',
      from: { path: `${web}library/` },
      to: { path: `${web}(features|app)/` },
    },
    {
      name: 'api-is-below-features',
      comment: 'api/ holds every query and key factory; it builds on the contract and lib/ only.',
      severity: 'error',
      from: { path: `${web}api/` },
      to: { path: `${web}(features|library|player|app|ui)/` },
    },
    {
      name: 'app-imports-features-through-index',
      comment: 'The shell uses a feature through its index.ts; only the router loads pages by file (lazily).',
      severity: 'error',
      from: { path: `${web}app/` },
      to: {
        path: `${web}features/[^/]+/`,
        pathNot: `${web}features/[^/]+/index\\.ts$`,
        dependencyTypesNot: ['dynamic-import'],
      },
    },
    {
      name: 'player-knows-no-feature',
      comment:
        'The player reads library data through api/ and gets the rest as PlayerServices (app/player-services.ts).',
      severity: 'error',
      from: { path: `${web}player/` },
      to: { path: `${web}(features|library|app)/` },
    },
    {
      name: 'nothing-imports-the-app-shell',
      comment: 'app/ composes everything; nothing below it imports it back.',
      severity: 'error',
      from: { path: `${web}(features|library|player|ui|lib)/` },
      to: { path: `${web}app/` },
    },
    {
      name: 'shared-stands-alone',
      comment: 'packages/shared is imported by server and web, so it imports neither.',
      severity: 'error',
      from: { path: '^packages/shared/src/' },
      to: { path: '^packages/(server|web)/' },
    },
    {
      name: 'web-pages-read-route-addresses',
      comment:
        'The web calls routes by their zod-free addresses (shared/src/routes) and reads the contract as types, so no page loads zod unless it validates (decision 043).',
      severity: 'error',
      from: { path: `${web}`, pathNot: '[.]test[.]tsx?$|/src/test/' },
      to: {
        path: '^packages/shared/src/(api/|domain/site-settings[.]ts$)',
        pathNot: '^packages/shared/src/api/(credentials|offline-session)[.]ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the checker cannot resolve is one the rules above cannot see.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      comment: 'An import cycle hides which side is the lower layer.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
      // Workspace packages (@mesmer/shared) are resolved through their package.json exports.
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
