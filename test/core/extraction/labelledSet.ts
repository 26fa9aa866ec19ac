/**
 * Labelled classification examples written for this project in developer phrasing (chat with a
 * coding agent, commit-message and review tone). Not taken from any benchmark. Each label is
 * `category.subtype` from the taxonomy (seed 000 §6.3); `temporal` marks time-bound statements.
 */
export interface LabelledExample {
  content: string;
  label: string;
  temporal?: boolean;
}

export const LABELLED_SET: readonly LabelledExample[] = [
  // episodic.decision
  { content: 'We decided to use PostgreSQL over MySQL because of JSONB support', label: 'episodic.decision' },
  { content: "Let's go with Zustand for state, Redux is overkill for this app", label: 'episodic.decision' },
  { content: 'After the review we agreed to drop IE11 support', label: 'episodic.decision' },
  {
    content:
      'Going forward the API returns ISO timestamps instead of epoch millis, that was the call in the design review',
    label: 'episodic.decision',
  },
  // episodic.outcome
  {
    content: 'The flaky test was fixed by mocking the clock; root cause was a timezone assumption',
    label: 'episodic.outcome',
  },
  { content: 'Bumping the pool size to 20 made the timeouts go away', label: 'episodic.outcome' },
  {
    content: 'The memory leak came from an event listener that was never removed in useEffect',
    label: 'episodic.outcome',
  },
  {
    content: 'That approach did not work: the worker still crashed with the same stack trace',
    label: 'episodic.outcome',
  },
  // episodic.event
  { content: 'Deployed v2.3 to production yesterday', label: 'episodic.event', temporal: true },
  { content: 'Merged the auth refactor into main this morning', label: 'episodic.event', temporal: true },
  { content: 'The staging cluster went down for two hours on Tuesday', label: 'episodic.event', temporal: true },
  { content: 'We upgraded React from 17 to 18 last sprint', label: 'episodic.event', temporal: true },
  // episodic.conversation
  {
    content: 'Discussed with Priya how to split the billing module, no conclusion yet',
    label: 'episodic.conversation',
  },
  { content: 'The user asked me to explain how the retry middleware works', label: 'episodic.conversation' },
  { content: 'We talked through the options for caching the search results', label: 'episodic.conversation' },
  // procedural.debugging
  { content: 'When the API times out, check the Redis connection first', label: 'procedural.debugging' },
  { content: 'If the build fails with ENOSPC, clear the docker volumes and retry', label: 'procedural.debugging' },
  {
    content: 'To debug the websocket drops, turn on DEBUG=ws* and watch the ping frames',
    label: 'procedural.debugging',
  },
  {
    content: 'Segfaults in the native module usually mean the prebuilt binary does not match the Node ABI; rebuild it',
    label: 'procedural.debugging',
  },
  // procedural.tool_usage
  { content: 'Use pnpm instead of npm in this repository', label: 'procedural.tool_usage' },
  { content: 'Run the linter with `npm run lint -- --fix` before pushing', label: 'procedural.tool_usage' },
  { content: 'Format SQL files with sqlfluff, not the IDE formatter', label: 'procedural.tool_usage' },
  { content: 'Type-check with tsc --noEmit; esbuild does not check types', label: 'procedural.tool_usage' },
  // procedural.workflow
  { content: 'To release: run the tests, then build, then push the tag', label: 'procedural.workflow' },
  {
    content:
      'Database migrations: generate with alembic revision --autogenerate, review the file, then alembic upgrade head',
    label: 'procedural.workflow',
  },
  {
    content: 'New features go on a branch off develop and need one approving review before merge',
    label: 'procedural.workflow',
  },
  {
    content: 'To add a new MCP tool, create it in src/mcp/tools with defineTool and register it in the tool list',
    label: 'procedural.workflow',
  },
  // procedural.pattern
  {
    content: 'Every handler in this codebase validates input with zod before touching the store',
    label: 'procedural.pattern',
  },
  { content: 'Repositories wrap the ORM so services never import Prisma directly', label: 'procedural.pattern' },
  {
    content: 'Errors are thrown as MemoryError with a code and the MCP layer maps the code to the response',
    label: 'procedural.pattern',
  },
  // preference.boundaries
  { content: "Don't suggest TypeScript enums, the user dislikes them", label: 'preference.boundaries' },
  { content: 'Never run git push --force on shared branches', label: 'preference.boundaries' },
  { content: 'Do not add new dependencies without asking me first', label: 'preference.boundaries' },
  { content: 'Please stay out of the generated files under src/gen', label: 'preference.boundaries' },
  // preference.communication
  { content: 'The user prefers concise answers with code examples first', label: 'preference.communication' },
  { content: 'Explain the reasoning step by step when debugging, I want to learn', label: 'preference.communication' },
  { content: 'Keep replies short, skip the summary at the end', label: 'preference.communication' },
  { content: 'Answer in German when I write in German', label: 'preference.communication' },
  // preference.style
  { content: 'Prefer functional style and 2-space indentation', label: 'preference.style' },
  { content: 'I like early returns over nested if blocks', label: 'preference.style' },
  { content: 'Name React components in PascalCase and hooks with a use prefix', label: 'preference.style' },
  { content: 'Single quotes and trailing commas everywhere, like prettier defaults', label: 'preference.style' },
  // preference.tools
  { content: 'I use Neovim with the LSP, not VS Code', label: 'preference.tools' },
  { content: 'My terminal is WezTerm with fish as the shell', label: 'preference.tools' },
  { content: 'I debug in Chrome DevTools rather than with console.log', label: 'preference.tools' },
  // semantic.user
  { content: "I'm a senior backend engineer working on payments", label: 'semantic.user' },
  { content: 'My name is Jonas and I maintain the ingestion service', label: 'semantic.user' },
  { content: 'I am in the Europe/Berlin timezone', label: 'semantic.user' },
  // semantic.environment
  { content: 'CI uses GitHub Actions on ubuntu-latest with Node 24', label: 'semantic.environment' },
  { content: 'Local dev runs in Docker Compose with Postgres 15 and Redis 7', label: 'semantic.environment' },
  { content: 'The staging database listens on port 5433', label: 'semantic.environment' },
  { content: 'I am on an M2 MacBook with 16 GB of RAM', label: 'semantic.environment' },
  // semantic.entity
  { content: 'Table users has columns id, email and created_at', label: 'semantic.entity' },
  { content: 'The /orders endpoint returns at most 100 items per page', label: 'semantic.entity' },
  { content: 'OrderService.place() takes a cart id and returns the order id', label: 'semantic.entity' },
  // semantic.project
  { content: 'The project uses FastAPI with SQLAlchemy', label: 'semantic.project' },
  { content: 'This repo is a monorepo with apps/web and apps/api managed by Turborepo', label: 'semantic.project' },
  { content: 'The frontend is built with Vite and Vue 3', label: 'semantic.project' },
  // semantic.domain
  {
    content: 'In our domain a settlement is the batch of captured payments sent to the bank each night',
    label: 'semantic.domain',
  },
  {
    content: 'A tenant can own several workspaces but each workspace belongs to exactly one tenant',
    label: 'semantic.domain',
  },
  {
    content: 'Refunds older than 90 days must go through manual review per the compliance rules',
    label: 'semantic.domain',
  },
];

/**
 * Written before the rules were tuned on LABELLED_SET and never used to tune them, so accuracy on
 * it estimates how the rules do on phrasing they were not fitted to.
 */
export const HELD_OUT_SET: readonly LabelledExample[] = [
  { content: 'We settled on a monthly release train after the retro', label: 'episodic.decision' },
  { content: 'The deadlock was caused by two transactions locking rows in opposite order', label: 'episodic.outcome' },
  { content: 'Rolled back the 4.1 release on Friday because checkout broke', label: 'episodic.event', temporal: true },
  { content: 'Sam and I went over the on-call rota in our 1:1', label: 'episodic.conversation' },
  { content: 'If the e2e suite hangs, kill the leftover chromium processes and rerun', label: 'procedural.debugging' },
  { content: 'Use uv instead of pip for Python dependencies here', label: 'procedural.tool_usage' },
  {
    content: 'To cut a hotfix: branch from the release tag, cherry-pick the fix, then bump the patch version',
    label: 'procedural.workflow',
  },
  {
    content: 'In this codebase every React page fetches data through a loader, never in components',
    label: 'procedural.pattern',
  },
  { content: 'Never touch the vendored copy of libsodium', label: 'preference.boundaries' },
  { content: 'I prefer detailed explanations with links to the docs', label: 'preference.communication' },
  { content: 'Prefer async/await over promise chains', label: 'preference.style' },
  { content: 'I use JetBrains Rider for the C# services', label: 'preference.tools' },
  { content: "I'm the tech lead of the mobile team", label: 'semantic.user' },
  { content: 'Production runs on Kubernetes 1.29 in eu-west-1', label: 'semantic.environment' },
  { content: 'The invoices table has a unique index on (tenant_id, number)', label: 'semantic.entity' },
  { content: 'The service is written in Go and talks to Kafka', label: 'semantic.project' },
  { content: 'A chargeback is when the cardholder disputes a payment through their bank', label: 'semantic.domain' },
  { content: 'The migration to the new auth provider finished last week', label: 'episodic.event', temporal: true },
];

/**
 * Written after the rules were tuned, against LABELLED_SET and HELD_OUT_SET, and deliberately not
 * used to tune anything: its accuracy is the honest estimate for phrasing the rules have never seen.
 * (HELD_OUT_SET's four failures were visible while tuning, so it is partly fitted too.)
 */
export const UNSEEN_SET: readonly LabelledExample[] = [
  { content: 'We went with Tailwind for the admin UI', label: 'episodic.decision' },
  {
    content: 'Turns out the cache key ignored the locale, which is why users saw the wrong language',
    label: 'episodic.outcome',
  },
  { content: 'Cut the 3.0 release candidate on Monday', label: 'episodic.event', temporal: true },
  { content: 'Pairing session with Lee about the flaky login test', label: 'episodic.conversation' },
  { content: 'When Jest reports open handles, look for unclosed database connections', label: 'procedural.debugging' },
  { content: 'Run database seeds with make seed, not the python script', label: 'procedural.tool_usage' },
  {
    content: 'To onboard a new service: add it to the catalog, create the dashboards, then page the SRE team',
    label: 'procedural.workflow',
  },
  { content: 'Every endpoint returns errors in the problem+json format', label: 'procedural.pattern' },
  { content: "Don't rename public API fields without a deprecation period", label: 'preference.boundaries' },
  { content: 'Give me the diff only, no explanations', label: 'preference.communication' },
  { content: 'Use named exports, no default exports', label: 'preference.style' },
  { content: 'My editor is Helix', label: 'preference.tools' },
  { content: 'I work at a fintech startup as the only backend developer', label: 'semantic.user' },
  { content: 'The build machine has Java 17 and Gradle 8 installed', label: 'semantic.environment' },
  { content: 'The Invoice class has a total() method that includes tax', label: 'semantic.entity' },
  { content: 'Our mobile app is React Native with Expo', label: 'semantic.project' },
  { content: 'An active user is anyone who logged in within the last 30 days', label: 'semantic.domain' },
  { content: 'Shipped dark mode to all users last Thursday', label: 'episodic.event', temporal: true },
];
