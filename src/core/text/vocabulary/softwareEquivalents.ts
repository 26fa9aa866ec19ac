/**
 * Words and phrases that mean the same thing in software work, though a general dictionary does
 * not list them together: "deploy" / "release" / "ship", "outage" / "incident", "tenant" /
 * "customer organization", "hang" / "freeze". One group per line; every member finds every other
 * (queryConcepts.ts gives these bridges the 'equivalent' credit). Groups stay narrow: a member
 * belongs only where a developer asking with one word would accept a memory that says another,
 * since a loose group turns questions about unstored topics into weak matches. A member that is
 * also an everyday word ("live", "rest", "box", "node") is left out or named in full ("rest api").
 */
const GROUPS = `
deploy, deployment, release, ship, publish, roll out, rollout, go live
redeploy, rollback, roll back, revert, downgrade
incident, outage, downtime, service disruption, production issue, is down, was down, went down, goes down, are down
postmortem, post mortem, incident review, retrospective, retro
hotfix, quick fix, emergency fix, patch release
bug, defect, regression, glitch
error, exception, failure, fault
crash, segfault, panic, abort, fatal error
hang, freeze, frozen, stuck, hung, unresponsive, deadlock
slow, sluggish, latency, lag, high latency
speed up, faster, optimize, optimise, performance improvement
memory leak, leak, memory growth, growing memory, out of memory, oom
timeout, timed out, time out, deadline exceeded
retry, retries, backoff, exponential backoff
rate limit, rate limiting, throttle, throttling, quota
install, installation, setup, set up, bootstrap, provision
onboard, onboarding, new hire, getting started, first day
configure, configuration, define, declare, specify, settings, config
environment variable, env var, env variable, environment variables, env vars
secret, api key, credential, credentials, access key, secret key
password, passphrase, passcode
token, access token, bearer token, refresh token
certificate, cert, tls certificate, ssl certificate, https certificate
tls, ssl, https
encrypt, encryption, cipher
hash, digest, checksum
signature, sign, signing, signed, hmac
login, log in, sign in, signin, logon
logout, log out, sign out, signout, logged out, signed out, session expired
sign up, signup, register, registration, create account
permission, permissions, access control, acl, rbac, roles, authorization
tenant, tenants, customer organization, customer org, organization, organisation, customer account
workspace, account, org
laptop, workstation, dev machine, development machine, computer, macbook, dev box
server, host, instance, server node
virtual machine, vm, ec2 instance, droplet
cluster, node pool
service, microservice, backend service
frontend, front end, client side, web client, browser app
backend, back end, server side
server side rendering, server-side rendering, ssr
client side rendering, client-side rendering, csr, spa, single page application
mobile app, ios app, android app, native app
iphone, ipad, ios, apple device
android phone, android device, android
app store, testflight, play store, google play, store listing
phone, sms, text message, mobile number
email, e-mail, mail
notification, notify, push notification, alert
alert, alarm, paging, pager
on call, on-call, pager duty, rotation
dashboard, dashboards, graph, graphs, chart, charts
metrics, telemetry, stats, instrumentation
log, logs, logging, log lines
trace, tracing, spans, distributed tracing
feature flag, feature toggle, flag, toggle, experiment, experiments, a/b test, ab test, split test
diff, patch, code change, code changes, changeset, delta
commit, changeset, revision
code review, pull request review, pr review, peer review
branch, feature branch, topic branch
merge, merged, merging, rebase
repository, repo, codebase, monorepo
dependency, dependencies, package, packages, library, libraries, third party
upgrade, update, bump, version bump
pin, lock, lockfile, pinned version
build, compile, compilation, bundle
artifact, binary, build output, package artifact
docker image, container image, image
continuous integration, ci, pipeline, build pipeline, ci job, workflow run
test, tests, spec, specs, test case, test suite
flaky, intermittent, nondeterministic, random failure
unit test, unit tests, integration test, end to end test, e2e test
mock, stub, fake, test double
fixture, fixtures, test data, seed data
seed, seeding, seed data
migration, migrations, schema change, schema changes, database migration, ddl
table, tables, schema
query, queries, sql query, select statement
index, indexes, indices, partial index
transaction, transactions, atomic, rollback
backup, back up, snapshot, dump
restore, recover, recovery
scale, scaling, autoscaling, horizontal scaling
traffic, load, throughput, requests per second, rps, qps
memory, ram, heap, memory usage
disk, storage, volume, disk space
save, store, persist, persisted, saved, stored
cache, cached, caching, memoize
timestamp, timestamps, datetime, date, dates
time zone, timezone, utc, gmt
schedule, scheduled, cron, cron job, nightly, daily job, periodic
job, jobs, task, tasks, worker, background job
queue, queues, backlog
endpoint, endpoints, route, routes, handler, api route
request, requests, api call, api calls
response, responses, reply, payload
protocol, grpc, http, rest api, graphql, websocket, json over http
internal, service to service, inter service, between services, private network
public api, external api, public endpoint, partner api
webhook, webhooks, callback, callbacks
documentation, docs, manual, guide, readme, wiki, docs site, documentation site
convention, conventions, guideline, guidelines, rule, rules, standard, standards, style guide, policy
naming convention, naming scheme, naming rules
format, formatting, formatter, style, code style
lint, linter, linting, static analysis
type hints, type annotations, typing, static typing, types
thread, threads, goroutine, goroutines, coroutine, coroutines, fiber
concurrency, parallelism, concurrent, parallel
async, asynchronous, await, event loop, non-blocking
import, importer, ingest, ingestion, load data, etl
export, exporter, extract, dump
page weight, page size, bundle size, payload size, asset size
image, images, picture, thumbnail, thumbnails, photo
compress, compression, minify, minification, shrink
launch, startup, start up, boot, app start, on start
release build, production build, release mode, release configuration
staging, preprod, pre-production, stage environment
production, prod, production environment
development, dev, locally, development environment, local environment
blob storage, object storage, bucket, buckets, file storage
search, full text search, full-text search, search index
audit, auditing, audit log, audit trail
document database, nosql, document store
invoice, invoices, billing document, bill
payment, payments, charge, checkout
order, orders, purchase, purchases
admin, administrator, superuser, root
pull request, pr, merge request, mr
issue, ticket, tickets, bug report
estimate, estimation, story points
sprint, iteration, milestone
deadline, due date, release date
`;

/** Every group as its member phrases, as written. */
export function equivalentGroups(): string[][] {
  return GROUPS.trim()
    .split('\n')
    .map((line) => line.split(','));
}
