/**
 * The memory process's allocator, asked for transparent huge pages on Linux with glibc.
 *
 * Why: a fresh process touches every page of what it reads and builds before its first answer (the
 * persisted index alone is 38.7 MB at 100,000 memories). Each first touch of a 4 KB page is a
 * page fault, and on virtual machines whose host hands out memory lazily a fault costs 15–16 µs
 * (measured on this project's 2-core VM: filling 38 MB of new memory took 158 ms, then 2 ms).
 * Node's buffers and SQLite's cache come from malloc; with `glibc.malloc.hugetlb=1` malloc marks its
 * mappings MADV_HUGEPAGE, so where the kernel's THP mode is `madvise` (the common default) one fault
 * maps 2 MB. Measured in `bench:cold` (docs/benchmarks.md, twelfth round): page faults through the
 * first answer about 25,000 → 12,400–13,200, memory process CPU 870–990 → 610–800 ms, RSS +2–4 MB.
 * Electron's Node (desktop VS Code) keeps array buffers in V8's sandbox rather than malloc, so there
 * only SQLite's and Node's own allocations follow the advice.
 *
 * Other platforms, musl and glibc before 2.35 ignore the variable, and THP mode `never` turns the
 * advice off. A GLIBC_TUNABLES the user set is left exactly as it is: they chose their allocator.
 */
export const HUGE_PAGE_MALLOC_TUNABLE = 'glibc.malloc.hugetlb=1';

export function hugePageMallocOf(environment: NodeJS.ProcessEnv, platform: NodeJS.Platform): NodeJS.ProcessEnv {
  if (platform !== 'linux' || environment.GLIBC_TUNABLES !== undefined) return {};
  return { GLIBC_TUNABLES: HUGE_PAGE_MALLOC_TUNABLE };
}
