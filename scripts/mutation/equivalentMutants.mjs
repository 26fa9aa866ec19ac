// Surviving mutants that are equivalent: the mutated code behaves exactly like the original for
// every input, so no test can kill them. Keyed by file, line, mutator and replacement; each entry
// says why. A survivor missing here is reported UNEXPLAINED and fails `npm run test:mutation`.
export function mutantKey(mutant) {
  return `${mutant.file}:${mutant.line} ${mutant.mutator} → ${mutant.replacement.replace(/\s+/g, ' ').slice(0, 80)}`;
}

export const EQUIVALENT_MUTANTS = {};
