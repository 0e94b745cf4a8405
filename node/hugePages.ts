// The environment the launcher (cli/launch.ts) starts the `iqm-tools` process with: glibc's malloc
// asked for transparent huge pages (the tunable glibc.malloc.hugetlb=1, glibc 2.35 and later; it
// makes malloc madvise(MADV_HUGEPAGE) its mmap'd blocks and heap). node takes a file's bytes, a
// Latin-1 string of them (node/text.ts decodeText) and typed arrays' memory from malloc, so a
// large input is faulted in 2 MB at a time instead of 4 KB: `check` of the 73 MB benchmark file
// took 62,000 page faults and 1.5-2.2 s of CPU without, 10,000 and 0.9-1.1 s with (docs/PERFORMANCE.md,
// eleventh session; on a VM where a page's first touch is dear). glibc reads tunables only when a
// process starts, hence here and not at run time. Elsewhere (macOS, Windows, musl) nothing reads it.
export const HUGE_PAGE_TUNABLE = 'glibc.malloc.hugetlb';

/**
 * `env` with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES (a colon-separated list of
 * name=value), on Linux; unchanged where the list already names that tunable (the caller's choice
 * stands) or on another platform.
 */
export function withHugePages(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): NodeJS.ProcessEnv {
  if (platform !== 'linux') return env;
  const tunables = env.GLIBC_TUNABLES ?? '';
  if (tunables.split(':').some((entry) => entry.split('=')[0] === HUGE_PAGE_TUNABLE)) return env;
  return { ...env, GLIBC_TUNABLES: tunables === '' ? `${HUGE_PAGE_TUNABLE}=1` : `${tunables}:${HUGE_PAGE_TUNABLE}=1` };
}
