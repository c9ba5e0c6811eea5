/**
 * What a command may touch of the outside world, passed in so tests can run the real CLI entry
 * in-process with captured output.
 */
export interface CliIO {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export const processIO = (): CliIO => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });
