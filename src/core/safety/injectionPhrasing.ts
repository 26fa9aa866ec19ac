/**
 * Phrasing that tries to steer the model reading a memory: orders to drop earlier instructions,
 * claims of new or higher-priority instructions, prompt-template section markers, chat-template
 * tokens, role reassignment and requests to leak secrets. A match does not change the text (it is
 * still delimited and defused by neutralise); it adds a warning to the block, so the reading model
 * is told that the memory contains instruction-like text. Patterns are written to stay quiet on
 * how developers talk about code ("ignore the previous build's cache", "installation instructions").
 */

const EARLIER = String.raw`(?:above|previous|prior|earlier|preceding|foregoing|original|system|developer|initial)`;
const INSTRUCTION_NOUN = String.raw`(?:instructions?|prompts?|rules?|messages?|context|text|directions?|guidelines?|guidance|commands?|conversation|content|orders?|constraints?|policies|polic(?:y|ies))`;

export const INSTRUCTION_LIKE: readonly RegExp[] = [
  // "ignore the above", "disregard all previous instructions", "forget your prior rules", "ignore everything above".
  new RegExp(
    String.raw`\b(?:ignore|disregard|forget|override|bypass|discard|skip)\b\s+(?:(?:all|any|every|of|the|your|my|these|those|that|everything|anything)\s+){0,3}(?:${EARLIER}\b(?:\s+${INSTRUCTION_NOUN}\b|\s*(?:[.,;:!\n]|$|(?:and|then|instead)\b))|${INSTRUCTION_NOUN}\s+(?:above|before|so far|you (?:were|have been) given))`,
    'i',
  ),
  new RegExp(
    String.raw`\b(?:ignore|disregard|forget)\b\s+(?:everything|anything|all)\s+(?:above|before|that came before|you were told)`,
    'i',
  ),
  // "IMPORTANT NEW INSTRUCTIONS FROM THE DEVELOPER", "new system prompt:", "hidden instructions!", "SYSTEM OVERRIDE".
  new RegExp(
    String.raw`\b(?:new|real|actual|true|secret|hidden|override)\s+(?:system\s+)?(?:instructions?|prompt|directives?|orders)\s*(?:[:!]|from\b)`,
    'i',
  ),
  /\b(?:system|admin|developer|security)\s+override\b/i,
  new RegExp(
    String.raw`\b(?:important|urgent|critical|priority)\b[^.\n]{0,24}\b(?:instructions?|directives?|orders)\b[^.\n]{0,24}\b(?:from|by)\s+(?:the\s+)?(?:developer|system|admin(?:istrator)?|operator|owner|user|assistant|anthropic|openai)\b`,
    'i',
  ),
  new RegExp(
    String.raw`\b(?:instructions?|message|directive)\s+from\s+(?:the\s+)?(?:developer|system|admin(?:istrator)?|operator|anthropic|openai)\s*[:!]`,
    'i',
  ),
  // Prompt-template section markers: "### Instruction:", "### System:", "### Response:".
  /^[ \t]*#{1,6}[ \t]*(?:instructions?|system(?: prompt)?|response|human|assistant|user)[ \t]*:/im,
  // Chat-template tokens and role tags (defused by neutralise, but their presence is a warning in itself).
  /\[\/?INST\]|<<\/?SYS>>|<\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|end_header_id|eot_id)\|>|<\/?(?:start_of_turn|end_of_turn)>/i,
  /<\s*\/?\s*(?:system|instructions?)\s*>|<\s*\/?\s*memory\b/i,
  // Addressed to the model that reads the memory.
  /\b(?:AI|LLM|language model|assistant|agent|model)s?\s+(?:reading|processing|that reads?|who reads?)\s+this\b|\bwhen you (?:read|see|process) this\b/i,
  // Role reassignment.
  /\byou are now (?:a|an|the|in|my|acting|no longer|free|unrestricted|jailbroken|DAN)\b/i,
  // "From now on, always use pnpm" is how people state preferences; only obedience and identity changes count.
  /\bfrom now on,? you (?:are|will (?:ignore|obey|only (?:obey|answer|respond))|must (?:ignore|obey))\b/i,
  /\b(?:pretend|act) (?:to be|as if you|that you are|you are)\b/i,
  /\b(?:DAN|jailbreak|jailbroken|god)\s+mode\b/i,
  // Leaking.
  // Advice ("never leak secrets in logs") and warnings ("this will leak passwords") are not requests to leak.
  /(?<!\b(?:not|never|n't|avoid|no|without|will|would|could|may|might|can)\**\s+(?:to\s+)?)\b(?:reveal|leak|exfiltrate|dump)\b[^.\n]{0,30}\b(?:(?:the|your) system prompt|(?:your|hidden|secret) instructions|api keys?|secrets?|credentials?|passwords?)\b/i,
  /\b(?:print|show|output|repeat|send|display)\b[^.\n]{0,20}\b(?:(?:the|your) system prompt|your (?:instructions|api keys?|secrets?|credentials?|passwords?))\b/i,
  /\bdo not (?:tell|inform|alert|mention (?:this )?to) the user\b|\bwithout (?:telling|informing|asking) the user\b/i,
];

export function isInstructionLike(text: string): boolean {
  return INSTRUCTION_LIKE.some((pattern) => pattern.test(text));
}
