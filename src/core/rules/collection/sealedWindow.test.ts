import { changeUnit, decidesTable } from '../testKit';
import { sealedWindow } from './sealedWindow';

describe('rule collection/sealed_window', () => {
  decidesTable(sealedWindow, [
    ['the fetch recorded sealed_window', changeUnit({ collectionRule: 'sealed_window' }), 'sealed_window'],
    ['fetched earlier, its window sealed now', changeUnit({ inSealedWindow: true }), 'sealed_window'],
    ['in an open window', changeUnit(), null],
  ]);
});
