/** One topic (payments webhooks) told twelve ways, and memories about other things. */
export const LINK_TARGET = 'The payments service retries failed Stripe webhooks with exponential backoff';

export const RELATED_TO_TARGET = [
  'Stripe webhook signatures are verified in payments/webhooks.ts before any processing',
  'The payments service stores Stripe event ids so duplicate webhooks are skipped',
  'Failed Stripe webhooks land in the payments dead-letter queue after five retries',
  'Webhook retry backoff for payments starts at 2 seconds and doubles each attempt',
  'Stripe sends webhooks for payment_intent.succeeded and charge.refunded to the payments service',
  'The payments service answers Stripe webhooks with 200 before doing the slow work',
  'Use the Stripe CLI to replay webhooks against the local payments service',
  'Stripe webhook secrets for payments live in the STRIPE_WEBHOOK_SECRET variable',
  'Payments webhook handlers must be idempotent because Stripe retries deliveries',
  'The payments service logs every Stripe webhook delivery id for tracing retries',
  'Exponential backoff in the payments worker is capped at ten minutes between retries',
  'Stripe webhook timeouts in the payments service are 10 seconds',
];

export const UNRELATED_TO_TARGET = [
  'Team lunch is on Thursdays',
  'The frontend uses Tailwind for styling',
  'Release notes live in CHANGELOG.md',
  'The search service indexes documents with Elasticsearch',
  'Use pnpm instead of npm in the monorepo',
  'The staging database is refreshed every Sunday night',
];
