/** Where the case commands that skip the command bus are counted (metrics/ provides it). */
export const COMMAND_COUNTS = Symbol('COMMAND_COUNTS');

export interface CommandCounts {
  /** Runs one command and counts it under `type` with the outcome it ended with. */
  counted<T>(type: string, run: () => Promise<T>): Promise<T>;
}
