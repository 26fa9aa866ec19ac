import { equivalentGroups } from './softwareEquivalents.ts';

/**
 * Vocabulary of software work that general dictionaries lack: abbreviations with their long
 * forms, categories of well-known tools and services with their members, and words that mean the
 * same in software work (softwareEquivalents.ts). All are used in both directions by query expansion (queryConcepts.ts): "db" finds "database", "database"
 * finds "PostgreSQL", "PostgreSQL" finds "database".
 */

/** Abbreviation = long form(s), one per line; a long form may be a phrase. */
const ABBREVIATIONS = `
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
`;

/**
 * category phrase(s) : members. A query naming the category finds the members and back. A member
 * that is also a common English word ("chef", "rest", "flux") is named in its unambiguous form
 * ("chef infra", "rest api"), so chat about cooking or resting is not taken for it.
 */
const CATEGORIES = `
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
`;

export interface PhraseEntry {
  /** The words of the phrase, lowercase. */
  words: string[];
  /** What it can also be called, each a phrase of lowercase words, with the bridge's label. */
  alternatives: Array<{ words: string[]; kind: 'abbreviation' | 'category' | 'member' | 'equivalent' }>;
}

function words(phrase: string): string[] {
  return phrase
    .toLowerCase()
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

function build(): Map<string, PhraseEntry> {
  const entries = new Map<string, PhraseEntry>();
  const add = (from: string[], to: string[], kind: PhraseEntry['alternatives'][number]['kind']): void => {
    const key = from.join(' ');
    if (key === to.join(' ')) return;
    const entry = entries.get(key) ?? { words: from, alternatives: [] };
    if (!entry.alternatives.some((alternative) => alternative.words.join(' ') === to.join(' ')))
      entry.alternatives.push({ words: to, kind });
    entries.set(key, entry);
  };
  for (const line of ABBREVIATIONS.trim().split('\n')) {
    const [short, longForms] = line.split('=');
    for (const long of longForms.split(',')) {
      add(words(short), words(long), 'abbreviation');
      add(words(long), words(short), 'abbreviation');
    }
  }
  for (const line of CATEGORIES.trim().split('\n')) {
    const [names, members] = line.split(' : ');
    for (const name of names.split(',')) {
      for (const member of members.split(',')) {
        add(words(name), words(member), 'member');
        add(words(member), words(name), 'category');
      }
    }
  }
  for (const group of equivalentGroups()) {
    const phrases = group.map(words);
    for (const from of phrases) for (const to of phrases) add(from, to, 'equivalent');
  }
  return entries;
}

let table: Map<string, PhraseEntry> | null = null;

/** Phrase (words joined by one space) -> what else it is called. Built once, on first use. */
export function softwareVocabulary(): ReadonlyMap<string, PhraseEntry> {
  table ??= build();
  return table;
}

/** Longest phrase the vocabulary knows, in words: how far ahead the query scan looks. */
export const MAX_PHRASE_WORDS = 4;
