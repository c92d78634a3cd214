// View container and view ids, as contributed in package.json.
export const Views = {
  container: 'reviewCorpus',
  tree: 'reviewCorpus.tree',
} as const;
export const URI_SCHEME = 'review-corpus';
/** Read-only documents of an example's Search/Replace blocks (registerSearchReplace.ts). */
export const SEARCH_REPLACE_SCHEME = 'review-corpus-search-replace';
/** The read-only fetch plan (registerPlanFetch.ts). */
export const PLAN_SCHEME = 'review-corpus-plan';
export const OUTPUT_CHANNEL = 'Review Corpus';
