// Theme colour ids contributed in package.json (with light, dark and high-contrast defaults).
export const Colors = {
  commentRange: 'reviewCorpus.commentRangeBackground',
  commentInlineText: 'reviewCorpus.commentInlineForeground',
  removedCommentRange: 'reviewCorpus.removedCommentRangeBackground',
  hunkRange: 'reviewCorpus.hunkBackground',
  flagRange: 'reviewCorpus.flagRangeBackground',
  flagSpan: 'reviewCorpus.flagSpanBackground',
} as const;
