/** The lines tested besides the system Node, oldest first. */
export declare const NODE_LINES: readonly number[];
/** The major version of the Node running this code. */
export declare const CURRENT_LINE: number;
/** The absolute path of the `node` binary of one supported line (this process's own when it runs that line). */
export declare function nodeBinary(line: number): string;
/** The version string (`v22.23.3`) of a line's binary. */
export declare function nodeVersion(line: number): string;
