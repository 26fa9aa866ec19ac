import { classifyContent } from '../longterm/classifyContent.ts';
import { detectCorrection } from './detectCorrection.ts';
import { detectFact } from './detectFact.ts';
import type { ExtractedMemory, ExtractionInput, MemoryExtractor } from './extractor.ts';
import { splitSentences } from './splitSentences.ts';

const ACKNOWLEDGEMENT =
  /^\s*(?:(?:ok(?:ay)?|thanks?(?: you)?|sure|yes|no|got it|done|sounds good|great|perfect|nice|cool)[\s,.!]*)+$/i;
const MIN_WORDS = 4;
const CORRECTION_BOOST = 0.1;

/**
 * Offline extraction: classifyContent per sentence. Sentences no rule recognises are dropped
 * (small talk, "let me look"), unless nothing in the message matched: then the whole message is
 * kept as one memory so content is never lost to extraction.
 */
export class RuleBasedExtractor implements MemoryExtractor {
  readonly name = 'rules';

  async extract(input: ExtractionInput): Promise<ExtractedMemory[]> {
    return extractByRules(input.content);
  }
}

export function extractByRules(content: string): ExtractedMemory[] {
  const extracted: ExtractedMemory[] = [];
  for (const sentence of splitSentences(content)) {
    if (ACKNOWLEDGEMENT.test(sentence) || sentence.split(/\s+/).length < MIN_WORDS) continue;
    const correction = detectCorrection(sentence);
    const text = correction?.statement ?? sentence;
    const classification = classifyContent(text, { category: 'semantic', subtype: 'project' });
    if (classification.rule === 'fallback' && !correction) continue;
    const fact = detectFact(text);
    extracted.push({
      content: text,
      category: classification.memory_category,
      subtype: classification.memory_subtype,
      importance: Math.min(1, classification.importance + (correction ? CORRECTION_BOOST : 0)),
      entities: classification.entities,
      is_temporal: classification.is_temporal,
      ...(fact ? { fact } : {}),
      ...(correction ? { correction: { replaces: correction.replaces } } : {}),
    });
  }
  if (extracted.length > 0 || content.trim().length === 0 || ACKNOWLEDGEMENT.test(content)) return extracted;
  const whole = classifyContent(content);
  return [
    {
      content: content.trim(),
      category: whole.memory_category,
      subtype: whole.memory_subtype,
      importance: whole.importance,
      entities: whole.entities,
      is_temporal: whole.is_temporal,
    },
  ];
}
