/**
 * The 299 hand-written vocabulary groups that issue 30 removed from the product, as they stood at
 * 9b8f97c (src/core/text/vocabulary/softwareVocabulary.ts and softwareEquivalents.ts): written in
 * earlier rounds from coding-dev.json and LoCoMo, before coding-dev-2.json existed. Kept here, in
 * the bench only, so bench/vocabularyGroupCheck.ts can measure each on data it was not derived from;
 * the product ships only the groups that check kept (src/core/text/vocabulary/checkedGroups.ts).
 */
import type { VocabularyLists } from '../../src/core/text/vocabulary/vocabularyGroup.ts';

export const CANDIDATE_GROUPS: VocabularyLists = {
  abbreviations: `
db = database
dbs = databases
k8s = kubernetes
repo = repository
repos = repositories
ts = typescript
js = javascript
py = python
auth = authentication, authorization
authn = authentication
authz = authorization
creds = credentials
cred = credential
env = environment
envs = environments
pr = pull request
prs = pull requests
mr = merge request
ci = continuous integration
cd = continuous deployment, continuous delivery
config = configuration
cfg = configuration
conf = configuration
deps = dependencies
dep = dependency
dev = development
prod = production
stg = staging
perf = performance
impl = implementation
admin = administrator
app = application
apps = applications
arg = argument
args = arguments
param = parameter
params = parameters
var = variable
vars = variables
func = function
fn = function
lib = library
libs = libraries
pkg = package
pkgs = packages
msg = message
msgs = messages
err = error
errs = errors
req = request
res = response
resp = response
img = image
doc = document
docs = documentation
spec = specification
specs = specifications
info = information
dir = directory
dirs = directories
tmp = temporary
temp = temporary
util = utility
utils = utilities
src = source
dest = destination
async = asynchronous
sync = synchronous
id = identifier
ids = identifiers
ui = user interface
ux = user experience
api = application programming interface
cli = command line
ide = editor
os = operating system
vm = virtual machine
vms = virtual machines
cpu = processor
mem = memory
ram = memory
gc = garbage collection
tz = timezone
i18n = internationalization
l10n = localization
a11y = accessibility
e2e = end to end
qa = quality assurance
sso = single sign on
mfa = multi factor authentication
2fa = two factor authentication
jwt = json web token
ttl = time to live
dns = domain name
cdn = content delivery network
sla = service level agreement
slo = service level objective
iac = infrastructure as code
orm = object relational mapper
sql = structured query language
cron = schedule
perms = permissions
ver = version
`,
  categories: `
database, datastore, data store, db : postgresql, postgres, mysql, mariadb, sqlite, mongodb, redis, cassandra, dynamodb, mssql, cockroachdb, firebolt, snowflake, bigquery, clickhouse, elasticsearch, neo4j, couchdb, supabase
cache, caching : redis, memcached, varnish, valkey
package manager, dependency manager : npm, pnpm, yarn, pip, pipenv, poetry, uv, conda, cargo, maven, gradle, nuget, composer, bundler, homebrew, brew
test framework, testing framework, test runner, unit test, tests, testing : jest, vitest, mocha, jasmine, pytest, unittest, junit, testng, rspec, minitest, phpunit, xunit, nunit, cypress, playwright, selenium, ava
message broker, message queue, queue, event bus, streaming : kafka, rabbitmq, nats, sqs, sns, pubsub, activemq, pulsar, kinesis, celery
monitoring, observability, metrics, alerting, dashboards : datadog, grafana, prometheus, newrelic, sentry, honeycomb, splunk, kibana, opentelemetry, pagerduty, nagios
logging, logs : logstash, fluentd, loki, splunk, kibana, papertrail, cloudwatch
ci, continuous integration, pipeline, build server : jenkins, circleci, travis, buildkite, teamcity, github actions, gitlab ci
container, containers, containerization : docker, podman, containerd, kubernetes, k8s
orchestration, orchestrator, container platform : kubernetes, k8s, nomad, ecs, fargate, openshift, helm
cloud, cloud provider, hosting : aws, azure, gcp, heroku, vercel, netlify, digitalocean, cloudflare
version control, source control, vcs : git, github, gitlab, bitbucket, mercurial, svn
web framework, backend framework, framework : django, flask, fastapi, rails, nestjs, laravel, asp.net
frontend framework, ui framework, ui library : react, vue, angular, svelte, preact, nextjs, nuxt
programming language, language : python, golang, rust, java, kotlin, typescript, javascript, ruby, php, scala, swift, csharp, c#, c++, elixir, haskell, clojure, perl, lua, dart
linter, linting, lint, formatter, formatting, code style : eslint, prettier, ruff, flake8, pylint, rubocop, gofmt, clippy, stylelint, biome, isort, mypy
type checker, type checking, static typing, types : mypy, pyright, typescript, tsc, sorbet
bundler, build tool, build system : webpack, vite, esbuild, rollup, parcel, turbopack, bazel, gradle, maven, cmake
editor, ide : vscode, vim, neovim, emacs, intellij, pycharm, webstorm, sublime, xcode
infrastructure as code, provisioning : terraform, pulumi, cloudformation, cdk, ansible
secret manager, secrets, vault : vault, secrets manager, keychain, 1password, doppler, sops
identity provider, sso, login provider : okta, auth0, keycloak, cognito, azure ad, entra
web server, reverse proxy, proxy, load balancer : nginx, apache, caddy, haproxy, traefik, envoy, elb, alb
search engine, full text search : elasticsearch, opensearch, solr, meilisearch, typesense, algolia
orm, database library : sqlalchemy, prisma, typeorm, sequelize, hibernate, activerecord, gorm, drizzle, knex
migration tool, schema migration, migrations : alembic, flyway, liquibase, knex, prisma migrate
workflow engine, job scheduler, task queue, background jobs : airflow, temporal, celery, sidekiq, resque, dagster, prefect, cron
http client : axios, httpx
object storage, blob storage, file storage : s3, gcs, minio, blob storage, r2
communication, chat, messaging : slack, discord, mattermost
issue tracker, ticket, tickets, tracker : jira, github issues, trello, asana, youtrack
documentation, docs : mkdocs, sphinx, docusaurus, gitbook, confluence, storybook
shell, terminal : bash, zsh, powershell
operating system, os : linux, ubuntu, debian, macos, windows, alpine, centos, fedora
browser : chrome, firefox, safari, chromium
payment, payments, billing : stripe, paypal, braintree, adyen
email service : sendgrid, mailgun, ses, postmark, mailchimp
feature flags, feature toggles, experimentation, a/b testing : launchdarkly, unleash, flagsmith, growthbook, statsig, optimizely, configcat
mobile framework, cross platform framework : react native, flutter, swiftui, jetpack compose, xamarin, ionic
app distribution, mobile release, beta testing : fastlane, testflight, app center, firebase app distribution
sms provider, sms gateway, messaging api : twilio, vonage, messagebird, plivo, sinch
error tracking, crash reporting : sentry, rollbar, bugsnag, crashlytics, honeybadger
rpc framework, api style : grpc, thrift, graphql, rest api, trpc, json-rpc
serialization format, data format : json, protobuf, avro, msgpack, yaml, toml, xml
container registry, image registry : ecr, gcr, docker hub, ghcr, harbor, quay
serverless, functions as a service : lambda, cloud functions, cloud run, azure functions
cdn, edge network : cloudfront, fastly, akamai, cloudflare
load testing, performance testing : k6, locust, jmeter, gatling, artillery
api gateway : kong gateway, apigee, tyk
state management : redux, mobx, zustand, vuex, pinia, recoil, ngrx
css framework, styling : tailwind, bootstrap, bulma, material ui, chakra, styled components
data warehouse, warehouse, analytics database : snowflake, bigquery, redshift, databricks, firebolt, clickhouse
data pipeline, etl : airflow, dbt, fivetran, airbyte, apache spark, dagster, aws glue
vector database, vector store : pinecone, weaviate, qdrant, milvus, pgvector, chroma
llm, language model, model provider : openai, anthropic, claude, gpt, gemini, llama, ollama
password manager : 1password, bitwarden, lastpass, keepass
static site generator : jekyll, gatsby, eleventy, mkdocs, docusaurus
profiler, profiling : pprof, py-spy, flamegraph, async-profiler
debugger, debugging tool : gdb, lldb, pdb, delve
package registry, artifact repository : pypi, crates.io, maven central, artifactory, nexus, verdaccio
certificate authority, certificate manager : cert-manager, letsencrypt, certbot, acm
service mesh : istio, linkerd, consul
gitops, continuous deployment, deployment tool : argocd, fluxcd, spinnaker, octopus deploy
configuration management : ansible, chef infra, puppet enterprise, saltstack
`,
  equivalents: `
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
`,
};
