import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectIdFromFolder, projectIdFromGitRemote } from '../../../src/core/editor/projectIdentity.ts';
import { requireId } from '../../../src/core/validation.ts';

test('every common form of one GitHub remote maps to one project id', () => {
  const forms = [
    'git@github.com:a/b.git',
    'https://github.com/a/b',
    'https://github.com/a/b.git',
    'https://user@github.com/A/B.git/',
    'ssh://git@github.com/a/b.git',
    'ssh://git@github.com:22/a/b',
    'git://github.com/a/b.git',
    '  github.com:a/b  ',
  ];
  const ids = new Set(forms.map(projectIdFromGitRemote));
  assert.deepEqual([...ids], ['git:github.com/a/b']);
});

test('different repositories and hosts stay apart', () => {
  assert.notEqual(projectIdFromGitRemote('git@github.com:a/b.git'), projectIdFromGitRemote('git@github.com:a/c.git'));
  assert.notEqual(projectIdFromGitRemote('git@github.com:a/b.git'), projectIdFromGitRemote('git@gitlab.com:a/b.git'));
  assert.equal(projectIdFromGitRemote('https://gitlab.com/group/sub/repo.git'), 'git:gitlab.com/group/sub/repo');
});

test('local and empty remotes have no network identity', () => {
  assert.equal(projectIdFromGitRemote(''), null);
  assert.equal(projectIdFromGitRemote('file:///srv/repo.git'), null);
  assert.equal(projectIdFromGitRemote('/srv/repo.git'), null);
});

test('folder ids are stable, distinct per path and valid core identifiers', () => {
  const a = projectIdFromFolder('/home/me/work/my app');
  assert.equal(a, projectIdFromFolder('/home/me/work/my app'));
  assert.notEqual(a, projectIdFromFolder('/home/me/other/my app'));
  assert.match(a, /^folder:my_app-[0-9a-f]{12}$/);
  assert.equal(requireId(a, 'project_id'), a);
  assert.equal(requireId(projectIdFromGitRemote('git@github.com:a/b.git'), 'project_id'), 'git:github.com/a/b');
});

test('the origin remote is read from a .git/config, else the first remote', async () => {
  const { remoteUrlFromGitConfig } = await import('../../../src/core/editor/gitConfig.ts');
  const config =
    '[core]\n\tbare = false\n[remote "upstream"]\n\turl = https://github.com/up/b\n[remote "origin"]\n\turl = git@github.com:a/b.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n';
  assert.equal(remoteUrlFromGitConfig(config), 'git@github.com:a/b.git');
  assert.equal(remoteUrlFromGitConfig('[remote "fork"]\n url = https://x.org/f/g\n'), 'https://x.org/f/g');
  assert.equal(remoteUrlFromGitConfig('[core]\n bare = true\n'), null);
});
