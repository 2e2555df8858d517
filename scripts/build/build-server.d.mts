// Types of build-server.mjs (plain JavaScript, so that `npm start` runs it without a TypeScript loader).
export declare const packageRoot: string;
/** Why the build of `root` in `outDir` must be redone, or undefined when it is current. */
export declare function staleReason(root?: string, outDir?: string): string | undefined;
/** Builds `outDir`/server/main.js when stale (or when forced); resolves to why it built, or undefined. */
export declare function buildServer(root?: string, outDir?: string, options?: { force?: boolean }): Promise<string | undefined>;
