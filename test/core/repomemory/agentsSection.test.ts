import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryError } from '../../../src/core/domain/errors.ts';
import {
  renderAgentsSection,
  SECTION_BEGIN,
  SECTION_END,
  spliceAgentsSection,
} from '../../../src/core/repomemory/agentsSection.ts';
import { TiktokenCounter } from '../../../src/core/tokens/tokenCounter.ts';

const tokens = new TiktokenCounter();

describe('the AGENTS.md section', () => {
  it('lists the memories with their files and stays within the token budget', () => {
    const memories = Array.from({ length: 40 }, (_, index) => ({
      content: `Convention ${index}: keep the handlers of module ${index} free of database calls.`,
      file: `.memory/convention-${index}.md`,
    }));
    const section = renderAgentsSection(memories, 300, tokens);
    assert.ok(section.tokens <= 300, `${section.tokens} tokens`);
    assert.ok(section.included > 3 && section.included < 40);
    assert.equal(section.omitted, 40 - section.included);
    assert.ok(section.text.startsWith(`${SECTION_BEGIN}\n`) && section.text.endsWith(SECTION_END));
    assert.ok(
      section.text.includes(
        '- Convention 0: keep the handlers of module 0 free of database calls. (.memory/convention-0.md)',
      ),
    );
    assert.ok(section.text.includes(`${section.omitted} more pinned memories left out by the 300-token budget`));
    assert.ok(!section.text.includes(`Convention ${section.included}:`));
  });

  it('says so when there is nothing to list, and refuses a budget that is no token count', () => {
    assert.ok(renderAgentsSection([], 100, tokens).text.includes('No pinned project memories yet.'));
    assert.throws(
      () => renderAgentsSection([], 0, tokens),
      (error: unknown) => error instanceof MemoryError && error.code === 'INVALID_INPUT',
    );
  });

  it('replaces only the marked section: the rest of the file is kept byte for byte', () => {
    const before = '# Agents\r\n\r\nUse  tabs.\t\n\n';
    const after = '\n\n## Review\n\nTrailing text without a final newline';
    const existing = `${before}${SECTION_BEGIN}\nold list\n${SECTION_END}${after}`;
    const section = renderAgentsSection([{ content: 'Use pnpm.' }], 200, tokens).text;
    const updated = spliceAgentsSection(existing, section);
    assert.equal(updated, `${before}${section}${after}`);
    assert.equal(Buffer.compare(Buffer.from(updated.slice(0, before.length)), Buffer.from(before)), 0);
    assert.equal(updated.slice(updated.length - after.length), after);
    // Regenerating with the same memories changes nothing.
    assert.equal(spliceAgentsSection(updated, section), updated);
  });

  it('appends the section to a file without one, and creates it for a missing file', () => {
    const section = renderAgentsSection([{ content: 'Use pnpm.' }], 200, tokens).text;
    assert.equal(spliceAgentsSection('# Agents\nBe brief.', section), `# Agents\nBe brief.\n\n${section}\n`);
    assert.equal(spliceAgentsSection('# Agents\n', section), `# Agents\n\n${section}\n`);
    assert.equal(spliceAgentsSection(null, section), `${section}\n`);
  });

  it('refuses markers it cannot trust instead of guessing', () => {
    const section = renderAgentsSection([], 100, tokens).text;
    for (const broken of [
      `${SECTION_BEGIN}\nno end`,
      `${SECTION_END}\n${SECTION_BEGIN}`,
      `${SECTION_BEGIN}\n${SECTION_END}\n${SECTION_BEGIN}\n${SECTION_END}`,
    ])
      assert.throws(
        () => spliceAgentsSection(broken, section),
        (error: unknown) => error instanceof MemoryError && error.code === 'INVALID_INPUT',
      );
  });
});
