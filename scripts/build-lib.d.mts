// Types of build-lib.mjs for the TypeScript tests that import it.
export const CLIENT_INPUTS: string[];
export const SERVER_INPUTS: string[];
export function sourceFiles(root: string, inputs: string[]): string[];
export function stampOf(root: string, files: string[]): string;
export function isStale(previousStamp: string | null, currentStamp: string, outputExists: boolean): boolean;
export function readStamp(file: string): string | null;
export function compressAssets(dir: string): Promise<number>;
export function buildCommit(root: string): string;
export function buildInfo(root: string): { version: string; commit: string };
export function clientManifest(dir: string): { client: Record<string, { etag: string; br: boolean; gz: boolean }>; files: string[] };
