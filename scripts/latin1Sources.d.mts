// Types of scripts/latin1Sources.mjs for the tests that import it.
export declare function latin1Source(text: string, fileName: string): string;
export declare function firstWideCharacter(text: string): string | null;
export declare const latin1Sources: { name: string; setup(build: unknown): void };
