import { accessFrequencySignal } from './accessFrequencySignal.ts';
import { confidenceSignal } from './confidenceSignal.ts';
import { entityMatchSignal } from './entityMatchSignal.ts';
import { importanceSignal } from './importanceSignal.ts';
import type { RankingSignal } from './rankingSignal.ts';
import { recencySignal } from './recencySignal.ts';
import { typeWeightSignal } from './typeWeightSignal.ts';

/**
 * The bounded multipliers on the match score, in the order they multiply (the order is part of
 * the score: floating-point products are compared for ties). Adding a signal: a module beside
 * these, its field in scoreBreakdownSchema (core/api/recallOutput.ts), and an entry here.
 */
export const RANKING_SIGNALS: readonly RankingSignal[] = [
  recencySignal,
  importanceSignal,
  accessFrequencySignal,
  typeWeightSignal,
  entityMatchSignal,
  confidenceSignal,
];
