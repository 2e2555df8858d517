// Types of build-console.mjs (plain JavaScript, so that `npm start` runs it without a TypeScript loader).
/** Raised when Vite is not installed: the console cannot be built there. */
export declare class ConsoleBuildUnavailable extends Error {}
/** Why the console's build of `root` in `outDir` must be redone, or undefined when it is current. */
export declare function consoleStaleReason(root?: string, outDir?: string): string | undefined;
/** Builds the console into `outDir` (default dist/console) when stale (or when forced); resolves to why it built. */
export declare function buildConsole(root?: string, outDir?: string, options?: { force?: boolean }): Promise<string | undefined>;
