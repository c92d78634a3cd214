// View container and view ids, as contributed in package.json.
export const Views = {
  container: 'reviewCorpus',
  tree: 'reviewCorpus.tree',
} as const;
export const URI_SCHEME = 'review-corpus';
export const OUTPUT_CHANNEL = 'Review Corpus';
