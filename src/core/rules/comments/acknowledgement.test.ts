import assert from 'node:assert/strict';
import { commentUnit, decidesTable, evidenceOf, testContext } from '../testKit';
import { acknowledgement, normaliseAcknowledgement } from './acknowledgement';

describe('rule comments/acknowledgement', () => {
  const msg = (message: string) => commentUnit({ message });
  decidesTable(acknowledgement, [
    ['"Done"', msg('Done'), 'acknowledgement'],
    ['"done." with trailing punctuation', msg('done.'), 'acknowledgement'],
    ['"  DONE!! " with case and whitespace', msg('  DONE!! \n'), 'acknowledgement'],
    ['"Ack"', msg('Ack'), 'acknowledgement'],
    ['"Acknowledged"', msg('Acknowledged'), 'acknowledgement'],
    ['"LGTM"', msg('LGTM'), 'acknowledgement'],
    ['"+1"', msg('+1'), 'acknowledgement'],
    ['"Thanks!"', msg('Thanks!'), 'acknowledgement'],
    ['"thank   you" with inner whitespace', msg('thank   you'), 'acknowledgement'],
    ['an acknowledgement followed by a request', msg('Done, but please also rename foo'), null],
    ['a request', msg('Please handle the None case'), null],
    ['"+1" inside a sentence', msg('+1 to what Bob said about locking'), null],
  ]);
  describe('with a configured list', () => {
    decidesTable(
      acknowledgement,
      [
        ['"Fixed" when only "done" is listed', msg('Fixed'), null],
        ['"Erledigt." when listed', msg('Erledigt.'), 'acknowledgement'],
      ],
      testContext({ acknowledgements: new Set(['done', 'Erledigt'].map(normaliseAcknowledgement)) }),
    );
  });
  it('normalises case, whitespace and trailing punctuation only', () => {
    assert.equal(normaliseAcknowledgement(' Will\tDo!!! '), 'will do');
    assert.equal(normaliseAcknowledgement('+1'), '+1');
    assert.equal(normaliseAcknowledgement('...done'), '...done');
  });
  it('records the normalised text it matched', () => {
    assert.deepEqual(evidenceOf(acknowledgement, msg('  DONE!! \n')), { text: 'done' });
    assert.deepEqual(evidenceOf(acknowledgement, msg('Thank   you.')), { text: 'thank you' });
  });
});
