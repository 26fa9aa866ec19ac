import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entitiesAfterEdit, extractEntities, normaliseEntities } from '../../../src/core/entities/extractEntities.ts';

describe('extractEntities', () => {
  it('finds files, symbols and URLs without splitting a file into a path', () => {
    assert.deepEqual(
      extractEntities(
        'Fixed the bug in src/api/users.ts by changing getUserById() — see https://github.com/foo/bar/issues/12.',
      ),
      ['url:https://github.com/foo/bar/issues/12', 'file:src/api/users.ts', 'symbol:getUserById'],
    );
  });

  it('finds packages from install commands, imports and scoped names, and kind:name entities', () => {
    assert.deepEqual(
      extractEntities('npm install --save-dev @types/node and pip install requests; table:users has an email column'),
      ['table:users', 'package:@types/node', 'package:requests'],
    );
    assert.deepEqual(
      extractEntities("import { z } from 'zod'; the user_service handles auth in lib/auth/. Note: use README.md"),
      ['file:README.md', 'path:lib/auth/', 'package:zod', 'symbol:user_service'],
    );
  });

  it('ignores times, prose colons and URL schemes, and does not repeat a named entity as a symbol', () => {
    assert.deepEqual(extractEntities('Meeting at 10:30 about database:prod_db and UserRepository'), [
      'database:prod_db',
      'symbol:UserRepository',
    ]);
    assert.deepEqual(extractEntities('Note: nothing here. TODO: later'), []);
  });

  it('normalises caller entities', () => {
    assert.deepEqual(normaliseEntities([' table:users ', '', 'table:users', 'file:a.ts']), [
      'table:users',
      'file:a.ts',
    ]);
  });

  it('reads file:line references as the file, never as a kind:name entity', () => {
    assert.deepEqual(extractEntities('From notes.ts:2-2: release on Tuesday'), ['file:notes.ts']);
    assert.deepEqual(extractEntities('Crash at app.py:14:3 and src/main.rs:7'), ['file:app.py', 'file:src/main.rs']);
    assert.deepEqual(extractEntities('table:users and issue:1234'), ['table:users']);
  });

  it('after an edit keeps the entities the text still names and drops the others', () => {
    const before = ['table:users', 'symbol:OldCache', 'team:Payments'];
    assert.deepEqual(entitiesAfterEdit(before, 'The users table moved to RedisCache; ask the payments team.'), [
      'table:users',
      'team:Payments',
      'symbol:RedisCache',
    ]);
    assert.deepEqual(entitiesAfterEdit(before, 'Nothing named here.'), []);
  });
});
