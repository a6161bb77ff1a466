/**
 * The layers of src/, checked in `npm test` (`npm run deps`). Imports point down only:
 *
 *   index, app, scheduled, queue, durable   (entry points: wire everything)
 *   routes                                  (one folder per feature: routes, handlers, schemas)
 *   http                                    (app factory, defineRoute, route auth, OpenAPI, responses)
 *   middleware                              (per-request context, auth, limits, headers)
 *   services                                (operations over storage, `db` first; effects through after-commit)
 *   lib, db                                 (pure helpers; the Drizzle schema and client)
 *   domain                                  (plain TypeScript: no bindings, no storage, no HTTP)
 *
 * and no two modules import each other, directly or round a longer loop. Tests (`*.test.ts`)
 * may import anything.
 */
const notTest = '\\.test\\.ts$';
const above = (...layers) => `^src/(${layers.join('|')})(/|\\.ts$)`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Two modules that import each other (directly or round a loop) are one concern, or one is in the wrong place.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-is-plain',
      severity: 'error',
      comment: 'Domain logic is plain TypeScript: it imports other domain modules and packages only.',
      from: { path: '^src/domain/', pathNot: notTest },
      to: { path: '^src/', pathNot: '^src/(domain/|assets/)' },
    },
    {
      name: 'lib-and-db-below-services',
      severity: 'error',
      comment:
        'lib/ is pure helpers and db/ the schema and client: neither reaches up into services or HTTP.',
      from: { path: '^src/(lib|db)/', pathNot: notTest },
      to: {
        path: above(
          'services',
          'middleware',
          'http',
          'routes',
          'durable',
          'queue',
          'app',
          'index',
          'scheduled',
        ),
      },
    },
    {
      name: 'services-below-http',
      severity: 'error',
      comment:
        'Services take plain values (db, bindings, principals) and never see a request: no middleware, http or routes.',
      from: { path: '^src/services/', pathNot: notTest },
      to: { path: above('middleware', 'http', 'routes', 'queue', 'app', 'index', 'scheduled') },
    },
    {
      name: 'services-take-db',
      severity: 'error',
      comment:
        'A service takes the handle (`db: Database`) as its first argument and never builds one: the entry points call getDb (docs/decisions/0200-services-take-the-database-handle-first.md). Type imports are fine.',
      from: { path: '^src/services/', pathNot: notTest },
      to: { path: '^src/db/client\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'middleware-below-http',
      severity: 'error',
      comment:
        'Middleware fills the request context; the HTTP layer (http/) and the routes build on it, not the reverse.',
      from: { path: '^src/middleware/', pathNot: notTest },
      to: { path: above('http', 'routes', 'queue', 'app', 'index', 'scheduled') },
    },
    {
      name: 'http-below-routes',
      severity: 'error',
      comment: 'http/ is shared by every route: it never imports a feature.',
      from: { path: '^src/http/', pathNot: notTest },
      to: { path: above('routes', 'app', 'index', 'scheduled') },
    },
    {
      name: 'routes-below-app',
      severity: 'error',
      comment: 'A route folder is mounted by app.ts; it does not import the app or the Worker entry.',
      from: { path: '^src/routes/', pathNot: notTest },
      to: { path: above('app', 'index', 'scheduled', 'queue') },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    exclude: { path: '(^|/)node_modules/' },
  },
};
