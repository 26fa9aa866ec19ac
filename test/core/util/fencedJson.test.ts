import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import { parseSearchKeys } from '../../../src/core/enrichment/parseSearchKeys.ts';
import { parseExtraction } from '../../../src/core/extraction/parseExtraction.ts';
import { parseFencedJson } from '../../../src/core/util/fencedJson.ts';

const refuse = (problem: string) => new Error(problem);

describe('parseFencedJson: the JSON of a chat model answer', () => {
  it('reads bare JSON and JSON in a ``` or ```json fence (any case), around whitespace', () => {
    for (const text of [
      '{"keys":["a"]}',
      '  {"keys":["a"]}\n',
      '```json\n{"keys":["a"]}\n```',
      '```JSON {"keys":["a"]}```',
      '\n```\n{"keys":["a"]}\n```\n',
    ])
      assert.deepEqual(parseFencedJson(text, refuse), { keys: ['a'] }, JSON.stringify(text));
  });

  it("refuses anything else through the caller's error, quoting at most 120 characters of the answer", () => {
    const long = `Sure! ${'x'.repeat(200)}`;
    assert.throws(
      () => parseFencedJson(long, refuse),
      (error: Error) => error.message === `answer is not JSON: ${JSON.stringify(`${long.slice(0, 120)}…`)}`,
    );
    // A fence with prose after it is not a fenced answer.
    assert.throws(() => parseFencedJson('```json\n{}\n```\nHope this helps', refuse), /answer is not JSON/);
  });

  it('is the one reader behind search-key enrichment and extraction: same fences accepted, same typed refusal', () => {
    assert.deepEqual(parseSearchKeys('```json\n{"keys":["deploy steps"]}\n```', 'm'), ['deploy steps']);
    assert.deepEqual(parseExtraction('```\n{"memories":[]}\n```', 'm'), []);
    for (const parse of [() => parseSearchKeys('not json', 'm'), () => parseExtraction('not json', 'm')])
      assert.throws(
        parse,
        (error) => MemoryError.is(error) && error.code === 'PROVIDER_ERROR' && /not JSON/.test(error.message),
      );
  });
});
