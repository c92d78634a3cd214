// How a decision names its unit, the same in every build, so builds can be compared unit by unit. An
// example's key is exampleKey (exampleStage.ts); a change's is org/change number.

/** A comment's decision key: org/change number/Gerrit comment id. */
export const commentKey = (org: string, changeNumber: number, gerritId: string): string =>
  `${org}/${changeNumber}/${gerritId}`;

/**
 * `commentKey` computed in SQL from a hosts, a changes and a comments row (by their aliases), to find a
 * comment's decision through the decisions table's primary key.
 */
export const commentKeySql = (hosts: string, changes: string, comments: string): string =>
  `${hosts}.org || '/' || ${changes}.number || '/' || ${comments}.gerrit_id`;
