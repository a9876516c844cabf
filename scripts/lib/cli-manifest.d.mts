/** Types of cli-manifest.mjs (plain JavaScript, so the launcher runs without compiling anything). */
export declare const ROOT: string;
export declare const CLI_OUT: string;
export declare const MANIFEST_FILE: string;
export declare const CLI_OUTPUTS: readonly string[];
export interface RecordedFile {
  size: number;
  mtimeMs: number;
  sha256: string;
}
export declare function recordFile(file: string, root?: string): RecordedFile;
export declare function staleReason(outputs?: readonly string[], root?: string): string | undefined;
export declare function buildIfStale(
  subject: string,
  options?: { announce?: boolean },
): Promise<string | undefined>;
