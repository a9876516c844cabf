/** Types of root.mjs (plain JavaScript: scripts/ensure-native.mjs loads it without compiling anything). */
export declare const ROOT: string;
