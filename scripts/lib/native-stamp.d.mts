/** Types of native-stamp.mjs (plain JavaScript: scripts/ensure-native.mjs runs it without compiling anything). */
export declare function loadedBefore(target: 'node' | 'electron', root?: string): boolean;
export declare function noteLoaded(target: 'node' | 'electron', root?: string): void;
