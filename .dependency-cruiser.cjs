/**
 * The intended arrows between the engine's folders, checked by dependency-cruiser in `npm test`
 * (`npm run lint`). Each folder of engine/ is a concern with an `index.ts` as its only door.
 * There is no baseline of known violations: any violation fails `npm run lint`.
 */
const CORE = '^engine/(auth|client|clock|hosted|http|manifest|mcp|runtime|search|store|sync|template|typed)/|^engine/[^/]+\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Dependencies point one way.', from: {}, to: { circular: true } },
    {
      name: 'through-the-door',
      severity: 'error',
      comment: "Another folder's files are reached through its index.ts only.",
      from: { path: '^engine/([^/]+)/' },
      to: { path: '^engine/[^/]+/.+', pathNot: ['^engine/$1/', '^engine/[^/]+/index\\.ts$'] },
    },
    {
      name: 'tests-and-scripts-through-the-door',
      severity: 'error',
      comment: 'Tests and scripts use the public doors, as users do.',
      from: { path: '^(test|scripts)/' },
      to: { path: '^engine/[^/]+/.+', pathNot: ['/index\\.ts$'] },
    },
    {
      name: 'suites-share-only-support',
      severity: 'error',
      comment: 'The suites, one folder per concern under test/, share code only through test/support and test/fixtures.',
      from: { path: '^test/' },
      to: { path: '^test/', pathNot: ['^test/(support|fixtures)/'] },
    },
    {
      name: 'core-apart-from-sandbox',
      severity: 'error',
      comment: 'The sandbox ships (connector-engine/sandbox), but no core module depends on it; only the CLI starts it.',
      from: { path: CORE },
      to: { path: '^engine/sandbox/' },
    },
    {
      name: 'sandbox-apart-from-core',
      severity: 'error',
      comment: 'The fakes stand for the upstream APIs: they share nothing with the engine but plain helpers.',
      from: { path: '^engine/sandbox/' },
      to: { path: '^engine/(auth|client|hosted|http|manifest|mcp|runtime|search|store|sync|template|cli)/' },
    },
    {
      name: 'store-below-search-and-sync',
      severity: 'error',
      comment: 'search and sync build on the store; the store knows neither.',
      from: { path: '^engine/store/' },
      to: { path: '^engine/(search|sync|runtime|hosted|cli)/' },
    },
    {
      name: 'runtime-below-apps',
      severity: 'error',
      comment: 'cli, hosted and mcp use the runtime; the runtime, and what it builds on, never use them.',
      from: { path: '^engine/(runtime|auth|http|template|manifest)/' },
      to: { path: '^engine/(cli|hosted|client|mcp)/' },
    },
    {
      name: 'manifest-is-data',
      severity: 'error',
      comment: 'The manifest folder reads and checks manifests; it depends on no engine part that runs them.',
      from: { path: '^engine/manifest/' },
      to: { path: '^engine/(auth|http|runtime|search|store|sync)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
