import assert from 'node:assert/strict';
import { decidesTable, evidenceOf, exampleUnit } from '../testKit';
import { suggestedEdit } from './suggestedEdit';

describe('rule examples/suggested_edit', () => {
  const said = (...messages: string[]) =>
    exampleUnit({ comments: messages.map((message) => ({ message, hasFixSuggestion: false, removedBy: null })) });
  decidesTable(suggestedEdit, [
    ['a fence opening the comment', said('```suggestion\nreturn x\n```'), 'suggested_edit'],
    ['a fence after prose', said('Simpler:\n```suggestion\nreturn x\n```'), 'suggested_edit'],
    ['a fence with trailing spaces and CRLF', said('Try:\r\n```suggestion  \r\nreturn x\r\n```'), 'suggested_edit'],
    [
      'a fence in a removed comment',
      exampleUnit({
        comments: [
          { message: 'ok', hasFixSuggestion: false, removedBy: null },
          { message: '```suggestion\nx\n```', hasFixSuggestion: false, removedBy: 'own_author' },
        ],
      }),
      'suggested_edit',
    ],
    ['a fence mentioned inline', said('you can use a ```suggestion block for this'), null],
    ['an indented fence', said('  ```suggestion\nx\n```'), null],
    ['another code fence', said('```python\nreturn x\n```'), null],
    ['a fence with more on its line', said('```suggestion please\nx'), null],
    [
      'structured fix_suggestions without any fence',
      exampleUnit({ comments: [{ message: 'Use the constant.', hasFixSuggestion: true, removedBy: null }] }),
      'suggested_edit',
    ],
  ]);
  it('records which form the suggested edit took', () => {
    assert.deepEqual(evidenceOf(suggestedEdit, said('```suggestion\nreturn x\n```')), { form: 'suggestion fence' });
    assert.deepEqual(
      evidenceOf(
        suggestedEdit,
        exampleUnit({ comments: [{ message: 'Use the constant.', hasFixSuggestion: true, removedBy: null }] }),
      ),
      { form: 'fix_suggestions' },
    );
  });
});
