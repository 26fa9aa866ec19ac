import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stem, stemUncached } from '../../../src/core/text/stemmer.ts';

// Pairs from the Porter2 sample vocabulary (snowballstem.org/algorithms/english/stemmer.html).
const VOCABULARY: Array<[string, string]> = [
  ['consign', 'consign'],
  ['consigned', 'consign'],
  ['consigning', 'consign'],
  ['consignment', 'consign'],
  ['consist', 'consist'],
  ['consisted', 'consist'],
  ['consistency', 'consist'],
  ['consistent', 'consist'],
  ['consistently', 'consist'],
  ['consisting', 'consist'],
  ['consists', 'consist'],
  ['consolation', 'consol'],
  ['consolations', 'consol'],
  ['consolatory', 'consolatori'],
  ['console', 'consol'],
  ['consoled', 'consol'],
  ['consoles', 'consol'],
  ['consolidate', 'consolid'],
  ['consolidated', 'consolid'],
  ['consolidating', 'consolid'],
  ['consoling', 'consol'],
  ['consolingly', 'consol'],
  ['consols', 'consol'],
  ['consonant', 'conson'],
  ['consort', 'consort'],
  ['consorted', 'consort'],
  ['consorting', 'consort'],
  ['conspicuous', 'conspicu'],
  ['conspicuously', 'conspicu'],
  ['conspiracy', 'conspiraci'],
  ['conspirator', 'conspir'],
  ['conspirators', 'conspir'],
  ['conspire', 'conspir'],
  ['conspired', 'conspir'],
  ['conspiring', 'conspir'],
  ['constable', 'constabl'],
  ['constables', 'constabl'],
  ['constance', 'constanc'],
  ['constancy', 'constanc'],
  ['constant', 'constant'],
  ['knack', 'knack'],
  ['knackeries', 'knackeri'],
  ['knacks', 'knack'],
  ['knag', 'knag'],
  ['knave', 'knave'],
  ['knaves', 'knave'],
  ['knavish', 'knavish'],
  ['kneaded', 'knead'],
  ['kneading', 'knead'],
  ['knee', 'knee'],
  ['kneel', 'kneel'],
  ['kneeled', 'kneel'],
  ['kneeling', 'kneel'],
  ['kneels', 'kneel'],
  ['knees', 'knee'],
  ['knell', 'knell'],
  ['knelt', 'knelt'],
  ['knew', 'knew'],
  ['knick', 'knick'],
  ['knif', 'knif'],
  ['knife', 'knife'],
  ['knight', 'knight'],
  ['knightly', 'knight'],
  ['knights', 'knight'],
  ['knit', 'knit'],
  ['knits', 'knit'],
  ['knitted', 'knit'],
  ['knitting', 'knit'],
  ['knives', 'knive'],
  ['knob', 'knob'],
  ['knobs', 'knob'],
  ['knock', 'knock'],
  ['knocked', 'knock'],
  ['knocker', 'knocker'],
  ['knockers', 'knocker'],
  ['knocking', 'knock'],
  ['knocks', 'knock'],
  ['knopp', 'knopp'],
  ['knot', 'knot'],
  ['knots', 'knot'],
];

test('stems the Porter2 sample vocabulary', () => {
  for (const [word, expected] of VOCABULARY) assert.equal(stem(word), expected, word);
});

test('applies each step of the algorithm', () => {
  const cases: Array<[string, string]> = [
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['ties', 'tie'],
    ['cries', 'cri'],
    ['gas', 'gas'],
    ['gaps', 'gap'],
    ['kiwis', 'kiwi'],
    ['this', 'this'],
    ['running', 'run'],
    ['hopping', 'hop'],
    ['hoping', 'hope'],
    ['agreed', 'agre'],
    ['bleed', 'bleed'],
    ['luxuriating', 'luxuri'],
    ['happy', 'happi'],
    ['say', 'say'],
    ['by', 'by'],
    ['relational', 'relat'],
    ['generously', 'generous'],
    ['communication', 'communic'],
    ['adoption', 'adopt'],
    ['researching', 'research'],
    ['researched', 'research'],
    ['painting', 'paint'],
    ['paintings', 'paint'],
    ['controller', 'control'],
    ['databases', 'databas'],
    ['caroline', 'carolin'],
  ];
  for (const [word, expected] of cases) assert.equal(stem(word), expected, word);
});

test('honours the exception lists and short words', () => {
  assert.equal(stem('skies'), 'sky');
  assert.equal(stem('dying'), 'die');
  assert.equal(stem('news'), 'news');
  assert.equal(stem('inning'), 'inning');
  assert.equal(stem('succeed'), 'succeed');
  assert.equal(stem('is'), 'is');
});

test('strips possessives and marks consonant y', () => {
  assert.equal(stem("dog's"), 'dog');
  assert.equal(stem("dogs'"), 'dog');
  assert.equal(stem('youth'), 'youth');
  assert.equal(stem('enjoying'), 'enjoy');
  assert.equal(stem('played'), 'play');
});

test('a word stemmed again, from the kept stems or after they were emptied, gives the same stem', () => {
  for (const [word, expected] of VOCABULARY) assert.equal(stem(word), expected, `first: ${word}`);
  for (const [word, expected] of VOCABULARY) assert.equal(stem(word), expected, `again: ${word}`);
  // More distinct words than are kept: the kept stems are emptied on the way.
  for (let index = 0; index < 60_000; index++) stem(`walking${index}ness`);
  for (const [word, expected] of VOCABULARY) assert.equal(stem(word), expected, `after emptying: ${word}`);
  const long = `${'internationalization'.repeat(3)}s`;
  assert.equal(stem(long), stem(long));
});

test('the stem without the cache (split parts) is the cached stem, for new and kept words alike', () => {
  for (const [word, expected] of VOCABULARY) assert.equal(stemUncached(word), expected, word);
  for (const word of ['devtool', 'kertamo', "'tis", 'tools\u2019', 'ab', 'skies', 'generously'])
    assert.equal(stemUncached(word), stem(word), word);
});

test('a "y" after a vowel, a curly apostrophe and a word with neither each keep their Porter2 stems (the rewrites run only when needed)', () => {
  for (const [word, expected] of [
    ['enjoying', 'enjoy'],
    ['obeyed', 'obey'],
    ['toys', 'toy'],
    ['yelled', 'yell'],
    ['crying', 'cri'],
    ['syzygy', 'syzygi'],
    ['boy\u2019s', 'boy'],
    ['\u2019tis', 'tis'],
    ['deployments', 'deploy'],
    ['consolidating', 'consolid'],
  ])
    assert.equal(stemUncached(word), expected, word);
});
