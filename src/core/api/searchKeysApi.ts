// A memory's search keys and enrichment state as surfaces show them (the panel's detail view).
export { enrichmentStateOf, type EnrichmentState } from '../enrichment/pendingEnrichment.ts';
export { searchKeyViews, type SearchKeyView } from '../text/searchKeys.ts';
