import assert from 'node:assert/strict';
import { COMMENT_RULES, FUNNEL, firstRemoval } from './funnel';
import { commentUnit, testContext } from './testKit';

describe('the funnel', () => {
  it('lists every rule of docs/rules.md in order, each with its stage and unit', () => {
    assert.deepEqual(
      FUNNEL.map((s) => `${s.stage}/${s.rule}/${s.unit}`),
      [
        'collection/created_before_start/changes',
        'collection/not_merged/changes',
        'collection/blocklisted_project/changes',
        'collection/no_comments/changes',
        'collection/sealed_window/changes',
        'collection/disallowed/changes',
        'collection/fetch_error/changes',
        'collection/gone_from_host/changes',
        'comments/deleted_on_host/comments',
        'comments/pseudo_file/comments',
        'comments/own_author/comments',
        'comments/bot_account/comments',
        'comments/acknowledgement/comments',
        'comments/no_line/comments',
        'comments/parent_side/comments',
        'comments/no_successor/comments',
        'comments/post_merge_comment/comments',
        'comments/unchanged_around/comments',
        'comments/bot_template/comments',
        'comments/fetch_error/comments',
        // Off by default (issues #17 and #18): comment-level decontamination and the judge's relevance.
        'comments/protected_comment/comments',
        'comments/irrelevant_comment/comments',
        'hunks/one_sided/hunks',
        'hunks/size/hunks',
        'examples/rebase_only/examples',
        'examples/suggested_edit/examples',
        'examples/applied_fix/examples',
        'examples/nothing_left/examples',
        'examples/manual_flag/examples',
        'duplicates/same_change/examples',
        'duplicates/exact_duplicate/examples',
        'duplicates/near_duplicate/examples',
        'duplicates/boilerplate/examples',
        'decontamination/protected_overlap/examples',
      ],
    );
  });

  it('counts a unit under the first rule that removes it', () => {
    // The owner's acknowledgement on the commit message: pseudo_file comes first.
    const unit = commentUnit({ path: '/COMMIT_MSG', author: 'o', owner: 'o', message: 'Done' });
    assert.equal(firstRemoval(COMMENT_RULES, unit, testContext())?.rule, 'pseudo_file');
    assert.equal(firstRemoval(COMMENT_RULES, { ...unit, path: 'a.py' }, testContext())?.rule, 'own_author');
    assert.equal(firstRemoval(COMMENT_RULES, commentUnit(), testContext()), null);
  });

  it('lets fetch_error catch a comment whose diff is missing, after bot_template', () => {
    const noDiff = commentUnit({ diff: 'missing', changedAround: null });
    assert.equal(firstRemoval(COMMENT_RULES, noDiff, testContext())?.rule, 'fetch_error');
    assert.equal(
      firstRemoval(COMMENT_RULES, { ...noDiff, message: 'Hint: Leading tabs' }, testContext())?.rule,
      'bot_template',
    );
  });
});
