/**
 * The dependency rules `npm run lint` enforces (ADR 022, ARCHITECTURE §13). Every import counts,
 * type-only ones included: a type pulled from above ties the layers as surely as a value does.
 *
 * Server (apps/server/src): foundation -> domain modules -> composition roots. A part imports only
 * parts below it in these lists; a new part goes where its imports allow (apps/server/README.md).
 */
const SRC = '^apps/server/src/';

/** Foundation, lowest first: adapters and cores that know no module. */
const FOUNDATION = ['config', 'db', 'lib', 'storage', 'mail', 'media', 'jobs', 'events', 'settings', 'identity', 'policy', 'http'];
/** context.ts only names the adapters every layer is handed (AppContext): imported as a type, from anywhere. */
const CONTEXT = 'context';

/** Domain modules (apps/server/src/modules/*), lowest first: each may import only those before it. */
const MODULES = [
  'instance', 'watched-words', 'media-links', 'quota', 'users', 'channel-blocks', 'videos', 'captions', 'history',
  'likes', 'tweets', 'comments', 'feeds', 'playlists', 'subscriptions', 'analytics', 'dashboard', 'embeds',
  'transcode', 'uploads', 'lives', 'notifications', 'moderation', 'registrations', 'auth', 'accounts', 'admin',
  'media-access', 'pages', 'system', 'federation',
];

/** Composition roots, lowest first: the only places that know every module (HTTP app, worker, CLI and what only it uses). */
const ROOTS = ['boot', 'app', 'worker', 'demo', 'cli', 'main'];

const part = (name) => `${SRC}${name}(\\.ts$|/)`;
const mod = (name) => `${SRC}modules/${name}/`;
const any = (names) => `(${names.map((n) => `^apps/server/src/${n}(\\.ts$|/)`).join('|')})`;
const anyModule = (names) => `${SRC}modules/(${names.join('|')})/`;

const orderRules = (list, path, anyOf, what) =>
  list.slice(0, -1).map((name, i) => ({
    name: `${what}-order:${name}`,
    comment: `${name} may import only the ${what} listed before it in .dependency-cruiser.cjs`,
    severity: 'error',
    from: { path: path(name) },
    to: { path: anyOf(list.slice(i + 1)) },
  }));

const MODULE_PATH_EXISTS = `${SRC}modules/[^/]+/`;
const unlisted = { path: MODULE_PATH_EXISTS, pathNot: anyModule(MODULES) };

/** Web (apps/web/src): shared code -> features -> the app; no feature imports another. */
const WEB = '^apps/web/src/';
const WEB_SHARED = `${WEB}(lib|components|config|types)/`;
const WEB_APP = `${WEB}(app|embed)/|^apps/web/src/main\\.tsx$`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No file imports itself through others (server, web, bench, packages).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    // With every part in one of three ordered lists, no two parts can import each other.
    ...orderRules(FOUNDATION, part, any, 'foundation'),
    {
      name: 'context-types-only',
      comment: 'context.ts is a type: importing it at run time would tie foundation to what it names.',
      severity: 'error',
      from: {},
      to: { path: part(CONTEXT), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'foundation-below-modules',
      comment: 'Foundation knows no module and no composition root.',
      severity: 'error',
      from: { path: any([...FOUNDATION, CONTEXT]) },
      to: { path: `${SRC}modules/|${any(ROOTS)}` },
    },
    ...orderRules(MODULES, mod, anyModule, 'module'),
    ...orderRules(ROOTS, part, any, 'root'),
    {
      name: 'modules-below-roots',
      comment: 'Modules never import a composition root.',
      severity: 'error',
      from: { path: `${SRC}modules/` },
      to: { path: any(ROOTS) },
    },
    {
      name: 'module-listed',
      comment: 'Every module has its place in MODULES: add a new one where its imports allow.',
      severity: 'error',
      from: {},
      to: unlisted,
    },
    {
      name: 'server-part-listed',
      comment: 'Every folder or file directly under apps/server/src is foundation, modules or a root.',
      severity: 'error',
      from: {},
      to: { path: `${SRC}[^/]+`, pathNot: `${any([...FOUNDATION, CONTEXT, ...ROOTS])}|${SRC}modules/` },
    },
    {
      name: 'apps-apart',
      comment: 'The server and the web app share code only through packages/.',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'packages-below-apps',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(apps|bench|e2e)/' },
    },
    {
      name: 'web-shared-below-features',
      comment: 'Shared web code (lib, components, config, types) knows no feature and not the app.',
      severity: 'error',
      from: { path: WEB_SHARED },
      to: { path: `${WEB}features/|${WEB_APP}` },
    },
    {
      name: 'web-features-apart',
      comment: 'A feature imports shared code only: what two features need moves down into lib or components.',
      severity: 'error',
      from: { path: `${WEB}features/([^/]+)/` },
      to: { path: `${WEB}features/`, pathNot: `${WEB}features/$1/` },
    },
    {
      name: 'web-features-below-app',
      severity: 'error',
      from: { path: `${WEB}features/` },
      to: { path: WEB_APP },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '\\.test\\.tsx?$', '\\.fixture\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
